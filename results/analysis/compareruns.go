package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// RunsReport is the analysis of stored runs against the reference runs[0], computed once by AnalyzeRuns.
type RunsReport struct {
	Names    []string // "run N" without a label
	Runs     []*Report
	Plans    notes.Note    // whether the plans are identical, else what differs, field by field
	Variants []RunsVariant // by name: the first run's in order, then new ones
}

// RunsVariant is one variant across the runs, one cell per run.
type RunsVariant struct {
	Name  string
	Cells []RunsCell
}

// RunsCell is one variant in one run; Summary's Comparison is against the reference run (Holm).
type RunsCell struct {
	Present  bool
	Summary  VariantSummary
	Compared bool
}

// AnalyzeRuns compares stored runs with runs[0], variant by variant of the same name.
func AnalyzeRuns(runs []*results.Run, labels []string) (*RunsReport, error) {
	if len(runs) == 0 {
		return nil, errors.New("compare runs: no runs")
	}
	if len(labels) != 0 && len(labels) != len(runs) {
		return nil, fmt.Errorf("compare runs: %d labels for %d runs", len(labels), len(runs))
	}
	rr := &RunsReport{Names: make([]string, len(runs))}
	var order []string
	for i, r := range runs {
		rr.Names[i] = fmt.Sprintf("run %d", i+1)
		if i < len(labels) && labels[i] != "" {
			rr.Names[i] = labels[i]
		}
		rr.Runs = append(rr.Runs, Analyze(r))
		for _, v := range r.Variants {
			if !slices.Contains(order, v.Name) {
				order = append(order, v.Name)
			}
		}
	}
	rr.Plans = planLine(runs, rr.Names)
	for _, name := range order {
		ref := findVariant(runs[0], name)
		rv := RunsVariant{Name: name, Cells: make([]RunsCell, len(runs))}
		for i, r := range runs {
			if j := variantIndex(r, name); j >= 0 {
				vs := summarizeVariant(&r.Variants[j], rr.Runs[i].Reps[j], i == 0)
				compared := i > 0 && ref != nil && vs.Stats.N > 0 && len(ref.Rates()) > 0
				rv.Cells[i] = RunsCell{Present: true, Summary: vs, Compared: compared}
			}
		}
		rr.Variants = append(rr.Variants, rv)
	}
	runComparisons(runs, rr)
	return rr, nil
}

// runComparisons compares every later run's variants with the reference run's, as one Holm family.
func runComparisons(runs []*results.Run, rr *RunsReport) {
	var bases, others [][]float64
	var at []*stats.Comparison
	for _, rv := range rr.Variants {
		ref := findVariant(runs[0], rv.Name)
		for i, r := range runs[1:] {
			if v := findVariant(r, rv.Name); ref != nil && v != nil {
				bases, others = append(bases, ref.Rates()), append(others, v.Rates())
				at = append(at, &rv.Cells[i+1].Summary.Comparison)
			}
		}
	}
	for k, c := range stats.ComparePairs(bases, others, results.DefaultEquivalence) {
		*at[k] = c
	}
}

// SlowerRuns: the variants significantly slower than in the reference by more than limitPct %.
func SlowerRuns(rr *RunsReport, limitPct float64) notes.List {
	var out notes.List
	for _, rv := range rr.Variants {
		for i := 1; i < len(rv.Cells); i++ {
			c := rv.Cells[i].Summary.Comparison
			if !rv.Cells[i].Present || !c.Significant || c.DeltaPct >= -limitPct {
				continue
			}
			out = append(out, notes.New(notes.SlowerRun, "variant", rv.Name, "run", rr.Names[i], "comparison", c))
		}
	}
	return out
}

func findVariant(r *results.Run, name string) *results.Variant {
	if i := variantIndex(r, name); i >= 0 {
		return &r.Variants[i]
	}
	return nil
}

func variantIndex(r *results.Run, name string) int {
	return slices.IndexFunc(r.Variants, func(v results.Variant) bool { return v.Name == name })
}

// planLine compares the runs' plans with the reference's as canonical JSON. A built-in
// target's address and a randomized order's seed are drawn per run and left out.
func planLine(runs []*results.Run, names []string) notes.Note {
	compact := func(raw json.RawMessage) string {
		var plan map[string]any
		if len(raw) == 0 || json.Unmarshal(raw, &plan) != nil {
			return string(raw)
		}
		if t, ok := plan["target"].(map[string]any); ok && t["builtin"] != nil {
			delete(t, "addr")
			delete(t, "url")
		}
		delete(plan, "seed")
		delete(plan, "seed_set")
		b, _ := json.Marshal(plan) // map keys sorted: canonical
		return string(b)
	}
	ref := compact(runs[0].Plan)
	any := ref != ""
	var differ []string
	var lines []notes.Note
	for i := 1; i < len(runs); i++ {
		p := compact(runs[i].Plan)
		any = any || p != ""
		if p != ref {
			differ = append(differ, names[i])
		}
		diffs := jsonDiff("", json.RawMessage(ref), json.RawMessage(p))
		for _, d := range append(diffs, jsonDiff("host", runs[0].Host, runs[i].Host)...) {
			lines = append(lines, notes.New(notes.PlanDiff, "run", names[i], "diff", d))
		}
		lines = append(lines, infoDiff(runs[0], runs[i], names[i])...)
	}
	return noteIf(any, notes.PlansCompared, "ref", names[0], "differ", differ, "lines", lines)
}

// infoDiff returns the first differing line of each server info command (nginx -V) of a variant.
func infoDiff(a, b *results.Run, name string) []notes.Note {
	var out []notes.Note
	for _, va := range a.Variants {
		vb := findVariant(b, va.Name)
		if vb == nil {
			continue
		}
		for _, ia := range va.Info {
			k := slices.IndexFunc(vb.Info, func(x results.InfoRun) bool { return x.Command == ia.Command })
			if k < 0 {
				continue
			}
			la, lb := strings.Split(ia.Output+ia.Error, "\n"), strings.Split(vb.Info[k].Output+vb.Info[k].Error, "\n")
			n := 0
			for n < min(len(la), len(lb)) && la[n] == lb[n] {
				n++
			}
			if n < max(len(la), len(lb)) {
				la, lb = append(la, ""), append(lb, "") // one side may have ended
				out = append(out, notes.New(notes.ServerInfoDiff, "run", name, "variant", va.Name,
					"command", ia.Command, "from", la[n], "to", lb[n]))
			}
		}
	}
	return out
}

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
			n := max(len(x), len(y))
			xs, ys := append(x, make([]any, n-len(x))...), append(y, make([]any, n-len(y))...)
			for i := range n {
				diffValues(fmt.Sprintf("%s[%d]", path, i), xs[i], ys[i], i < len(x), i < len(y), out)
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
