package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// Capacities are every variant's capacity search; nil for another run.
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

// CapacityLine: "capacity under 20 ms p99 handshake: baseline 41,000/s, kae 96,000/s (+134 %)".
func CapacityLine(r *results.Run) notes.Note {
	cs := Capacities(r)
	if cs == nil {
		return notes.Note{}
	}
	base, _ := r.BaselineVariant() // -1 when not measured: no differences; cs[i] is variant i's
	var baseKnee float64
	if base >= 0 && !cs[base].BelowFrom && !cs[base].AtMax {
		baseKnee = cs[base].Knee
	}
	knees := make([]notes.Note, 0, len(cs))
	for i := range cs {
		c := &cs[i]
		k := notes.New(notes.CapacityKnee, "variant", r.Variants[c.Variant].Name, "knee", c.Knee, "from", r.Capacity.From,
			"steps", len(c.Steps), "below_from", c.BelowFrom, "at_max", c.AtMax)
		if c.Variant != base && baseKnee > 0 && c.Knee > 0 && !c.BelowFrom && !c.AtMax {
			k.Args["delta"] = c.Knee/baseKnee - 1
		}
		knees = append(knees, k)
	}
	return notes.New(notes.Capacity, "spec", *r.Capacity, "knees", knees)
}
