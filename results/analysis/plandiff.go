package analysis

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxDiffs bounds the differences listed per pair of runs.
const maxDiffs = 12

// durationKeys are the plan's time.Duration JSON keys, shown as durations.
// TestDurationKeys checks them against plans.Plan, which results/ may not import.
var durationKeys = map[string]bool{"budget_time": true, "command_timeout": true, "cooldown": true, "device_latency": true, "duration": true, "for": true, "interval": true, "linger": true, "offload_cpu": true, "p99_handshake": true, "p99_total": true, "soft_cpu": true, "timeout": true, "wait": true, "warmup": true, "window": true}

// jsonDiff lists the fields where JSON a and b differ, at most maxDiffs:
// "load.groups[0].connections: 200 → 50", "variants[3]: absent → {…}".
func jsonDiff(prefix string, a, b json.RawMessage) []string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return nil
	}
	var out []string
	diffValues(prefix, va, vb, &out)
	if len(out) > maxDiffs {
		out = append(out[:maxDiffs], fmt.Sprintf("… %d more", len(out)-maxDiffs))
	}
	return out
}

// diffValues appends to out a line per leaf in which a and b differ.
func diffValues(path string, a, b any, out *[]string) {
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range x {
				keys[k] = true
			}
			for k := range y {
				keys[k] = true
			}
			for _, k := range slices.Sorted(mapKeys(keys)) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				va, ina := x[k]
				vb, inb := y[k]
				switch {
				case !ina:
					*out = append(*out, fmt.Sprintf("%s: absent → %s", p, shown(k, vb)))
				case !inb:
					*out = append(*out, fmt.Sprintf("%s: %s → absent", p, shown(k, va)))
				default:
					diffValues(p, va, vb, out)
				}
			}
			return
		}
	case []any:
		if y, ok := b.([]any); ok {
			for i := range max(len(x), len(y)) {
				p := fmt.Sprintf("%s[%d]", path, i)
				switch {
				case i >= len(x):
					*out = append(*out, fmt.Sprintf("%s: absent → %s", p, shown("", y[i])))
				case i >= len(y):
					*out = append(*out, fmt.Sprintf("%s: %s → absent", p, shown("", x[i])))
				default:
					diffValues(p, x[i], y[i], out)
				}
			}
			return
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		key := path[strings.LastIndexAny(path, ".]")+1:]
		*out = append(*out, fmt.Sprintf("%s: %s → %s", path, shown(key, a), shown(key, b)))
	}
}

// mapKeys yields the keys of m.
func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// shown is a JSON value as a difference line shows it: a duration field
// as a duration, a string as it is, an object or list elided.
func shown(key string, v any) string {
	switch x := v.(type) {
	case float64:
		if durationKeys[key] {
			return time.Duration(x).String()
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return strconv.Quote(x)
	case map[string]any:
		return "{…}"
	case []any:
		return fmt.Sprintf("[%d items]", len(x))
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
