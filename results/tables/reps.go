package tables

import (
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// eachRep calls row for every repetition of m with its variant's name and
// its number (from 1).
func eachRep(m *analysis.Report, row func(variant, rep string, r *results.Rep)) {
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		for j := range v.Reps {
			row(v.Name, strconv.Itoa(v.Reps[j].Index+1), &v.Reps[j])
		}
	}
}

// NotCounted has a row per repetition that counted requests outside its
// window or read its TIME_WAIT sockets after it: the warm-up, the requests
// in flight at the window's end by what became of them, and those sockets.
func NotCounted(m *analysis.Report) Table {
	t := Table{Header: []string{"variant", "rep", "responses", "errors", "completed after", "errors after", "failed or cut off",
		"in connect", "in handshake", "awaiting response", "TIME_WAIT sockets after"}}
	t.Right = slices.Repeat([]bool{true}, len(t.Header))
	t.Right[0] = false
	eachRep(m, func(variant, rep string, r *results.Rep) {
		o := r.Total.Outside
		if o == (results.Outside{}) && r.TimeWait == nil {
			return
		}
		tw := format.Missing
		if r.TimeWait != nil {
			tw = format.Count(uint64(max(*r.TimeWait, 0)))
		}
		u := o.Unanswered
		t.Add(variant, rep, format.Count(o.Warmup), errorsWithClasses(o.WarmupErrorTotal(), o.WarmupClasses), format.Count(o.Late),
			errorsWithClasses(o.AfterClasses.Total(), o.AfterClasses), format.Count(o.Abandoned),
			format.Count(u.Connect), format.Count(u.Handshake), format.Count(u.Response), tw)
	})
	return t
}

// errorsWithClasses is a count of errors with its classes: "1,400 (status 1,400)".
func errorsWithClasses(n uint64, classes results.ErrorCounts) string {
	if c := format.ErrorClasses(classes); c != "" && n > 0 {
		return format.Count(n) + " (" + c + ")"
	}
	return format.Count(n)
}

// Errors has a row per repetition and error class that occurred in its
// window: the count and the first message, as written.
func Errors(m *analysis.Report) Table {
	t := Table{Header: []string{"variant", "rep", "class", "count", "first message"}, Right: []bool{false, true, false, true, false}}
	eachRep(m, func(variant, rep string, r *results.Rep) {
		for c, ec := range r.Total.Errors {
			if ec.Count == 0 {
				continue
			}
			first := ec.First
			if first == "" {
				first = "(no message)"
			}
			t.Add(variant, rep, results.ErrorClass(c).String(), format.Count(ec.Count), first)
		}
	})
	return t
}

// ByCount is the keys of counts, the most counted first, ties in key order.
func ByCount(counts map[string]uint64) []string {
	keys := slices.Sorted(maps.Keys(counts))
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	return keys
}

// Negotiated has a row per variant and the parameters its handshakes
// negotiated, over its repetitions, the most frequent first, with the share.
func Negotiated(m *analysis.Report) Table {
	t := Table{Header: []string{"variant", "version, cipher, group", "handshakes", "share"}, Right: []bool{false, false, true, true}}
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		sum := map[string]uint64{}
		var total uint64
		for j := range v.Reps {
			for k, n := range v.Reps[j].Total.Negotiated {
				sum[k] += n
				total += n
			}
		}
		for _, k := range ByCount(sum) {
			t.Add(v.Name, k, format.Count(sum[k]), format.Percent(float64(sum[k])/float64(total)))
		}
	}
	return t
}

// ProbeReadings has a row per repetition and probe: its readings before
// and after the window, their delta and the probe's error.
func ProbeReadings(m *analysis.Report) Table {
	t := Table{Header: []string{"variant", "rep", "probe", "before", "after", "delta", "error"},
		Right: []bool{false, true, false, true, true, true, false}}
	eachRep(m, func(variant, rep string, r *results.Rep) {
		for _, k := range slices.Sorted(maps.Keys(r.Probes)) {
			p := r.Probes[k]
			t.Add(variant, rep, k, format.Float(p.Before, 2), format.Float(p.After, 2), format.Float(p.Delta(), 2), p.Error)
		}
	})
	return t
}
