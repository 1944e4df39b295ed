package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"math"
	"strings"
	"time"
)

// Capacities returns the capacity search of every variant of r, in
// order; nil for a run that is not a capacity search.
func Capacities(r *results.Run) []results.Capacity {
	if r.Capacity == nil {
		return nil
	}
	out := make([]results.Capacity, 0, len(r.Variants))
	for i := range r.Variants {
		c := results.Capacity{Variant: i}
		for j := range r.Variants[i].Reps {
			rep := &r.Variants[i].Reps[j]
			st := rep.Step
			if st == nil {
				continue
			}
			c.Steps = append(c.Steps, rep)
			switch {
			case st.Pass && st.Rate > c.Knee:
				c.Knee = st.Rate
			case !st.Pass && (c.Fail == 0 || st.Rate < c.Fail):
				c.Fail = st.Rate
			}
		}
		c.BelowFrom = len(c.Steps) > 0 && c.Knee == 0
		c.AtMax = c.Fail == 0 && c.Knee > 0 && c.Knee >= r.Capacity.Max
		out = append(out, c)
	}
	return out
}

// KneeWords is c's capacity for a report: "41,000/s", "≥ 1,000,000/s"
// (every step passed), "< 1,000/s" (none did) or "-" (no step).
func KneeWords(c *results.Capacity, from float64) string {
	switch {
	case len(c.Steps) == 0:
		return "-"
	case c.BelowFrom:
		return "< " + format.Count(uint64(math.Round(from))) + "/s"
	case c.AtMax:
		return "≥ " + format.Count(uint64(math.Round(c.Knee))) + "/s"
	}
	return format.Count(uint64(math.Round(c.Knee))) + "/s"
}

// TargetWords names the targets: "20 ms p99 handshake", "50 ms p99 total".
func TargetWords(s *results.CapacitySpec) string {
	var ts []string
	if s.P99Handshake > 0 {
		ts = append(ts, millisWords(s.P99Handshake)+" p99 handshake")
	}
	if s.P99Total > 0 {
		ts = append(ts, millisWords(s.P99Total)+" p99 total")
	}
	return strings.Join(ts, ", ")
}

// millisWords writes d in milliseconds without trailing zeros: "20 ms", "2.5 ms".
func millisWords(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)), "0"), ".") + " ms"
}

// CapacityLine is the run's capacity comparison in one line: "capacity
// under 20 ms p99 handshake: baseline 41,000/s, kae 96,000/s (+134 %)",
// each variant against the baseline; "" for a run that is not a capacity
// search.
func CapacityLine(r *results.Run) string {
	cs := Capacities(r)
	if cs == nil {
		return ""
	}
	base, _ := r.BaselineVariant() // -1 when not measured: no differences
	var baseKnee float64
	for i := range cs {
		if cs[i].Variant == base && !cs[i].BelowFrom && !cs[i].AtMax {
			baseKnee = cs[i].Knee
		}
	}
	parts := make([]string, 0, len(cs))
	for i := range cs {
		c := &cs[i]
		p := r.Variants[c.Variant].Name + " " + KneeWords(c, r.Capacity.From)
		if c.Variant != base && baseKnee > 0 && c.Knee > 0 && !c.BelowFrom && !c.AtMax {
			p += fmt.Sprintf(" (%+.0f %%)", 100*(c.Knee/baseKnee-1))
		}
		parts = append(parts, p)
	}
	return "capacity under " + TargetWords(r.Capacity) + ": " + strings.Join(parts, ", ")
}
