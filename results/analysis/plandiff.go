package analysis

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

const maxDiffs = 12 // differences listed per pair of runs

// durationKeys are the plan's time.Duration JSON keys (results/ may not import plans).
var durationKeys = map[string]bool{"budget_time": true, "command_timeout": true, "cooldown": true, "device_latency": true, "duration": true, "for": true, "interval": true, "linger": true, "offload_cpu": true, "p99_handshake": true, "p99_total": true, "soft_cpu": true, "timeout": true, "wait": true, "warmup": true, "window": true}

// jsonDiff lists the fields where JSON a and b differ: "load.groups[0].connections: 200 → 50".
func jsonDiff(prefix string, a, b json.RawMessage) []string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return nil
	}
	var out []string
	diffValues(prefix, va, vb, true, true, &out)
	if len(out) > maxDiffs {
		out = append(out[:maxDiffs], fmt.Sprintf("… %d more", len(out)-maxDiffs))
	}
	return out
}

// diffValues appends to out a line per leaf in which a and b differ, and per field only one has.
func diffValues(path string, a, b any, ina, inb bool, out *[]string) {
	key := path[strings.LastIndexAny(path, ".]")+1:] // "" for an element
	if !ina || !inb {
		from, to := "absent", "absent"
		if ina {
			from = shown(key, a)
		}
		if inb {
			to = shown(key, b)
		}
		*out = append(*out, fmt.Sprintf("%s: %s → %s", path, from, to))
		return
	}
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			union := maps.Clone(x)
			maps.Copy(union, y)
			for _, k := range slices.Sorted(maps.Keys(union)) {
				va, ina := x[k]
				vb, inb := y[k]
				diffValues(strings.TrimPrefix(path+"."+k, "."), va, vb, ina, inb, out)
			}
			return
		}
	case []any:
		if y, ok := b.([]any); ok {
			for i := range max(len(x), len(y)) {
				var va, vb any
				if i < len(x) {
					va = x[i]
				}
				if i < len(y) {
					vb = y[i]
				}
				diffValues(fmt.Sprintf("%s[%d]", path, i), va, vb, i < len(x), i < len(y), out)
			}
			return
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		*out = append(*out, fmt.Sprintf("%s: %s → %s", path, shown(key, a), shown(key, b)))
	}
}

// shown is a JSON value in a difference line: a duration as a duration, an object or list elided.
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
