package analysis

import (
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// CheckRep says why the repetition whose total is t failed; nil for a good one.
func CheckRep(t *results.Group, maxErrors float64) *results.Failure {
	if t.Succeeded() == 0 {
		f := &results.Failure{Code: results.FailNoSuccess, Errors: t.Errors.Total()}
		if u := t.Outside.Unanswered; u.Total() > 0 {
			f.Unanswered = &u
		}
		return f
	}
	if share := t.ErrorShare(); share > maxErrors {
		return &results.Failure{Code: results.FailErrors, Share: share, Max: maxErrors}
	}
	return nil
}

// Failed names the variants with a failed repetition, in run order.
func Failed(r *results.Run) []string {
	var names []string
	for _, v := range r.Variants {
		if slices.ContainsFunc(v.Reps, func(rep results.Rep) bool { return rep.Failed != nil }) {
			names = append(names, v.Name)
		}
	}
	return names
}

// NotMeasuredLines is one note per variant the run could not measure: "variant b after 2 repetitions: …".
func NotMeasuredLines(r *results.Run) notes.List {
	var lines notes.List
	for _, nm := range r.NotMeasured {
		n := 0
		if v := findVariant(r, nm.Variant); v != nil {
			n = len(v.Reps)
		}
		lines = append(lines, notes.New(notes.NotMeasured, "variant", nm.Variant, "reps", n, "reason", nm.Reason))
	}
	return lines
}

// FailedLine is a failed repetition's loud line; zero for a good one.
func FailedLine(rep *results.Rep) notes.Note {
	return noteIf(rep.Failed != nil, notes.RepFailed, "why", notes.Failure(rep.Failed))
}

// BackoffLine says that slots backed off after failed connects.
func BackoffLine(rep *results.Rep) notes.Note {
	t := &rep.Total
	fails := t.Errors[results.ErrConnect].Count + t.Errors[results.ErrPorts].Count
	return noteIf(t.Backoffs > 0, notes.BackedOff, "backoffs", t.Backoffs, "fails", fails)
}

// PartialLine says what window p measured until an interrupt or a lost worker cut it short.
func PartialLine(variant string, p *results.Rep) notes.Note {
	t := &p.Total
	n := notes.New(notes.PartialWindow, "variant", variant, "rep", p.Index+1, "seconds", t.Window.Length().Seconds(),
		"planned", p.PartialOf.Round(time.Millisecond), "requests", t.Requests, "rate", t.Rate(), "errors", t.Errors.Total())
	if l := p.Lost; l != nil {
		n.Args["lost_group"], n.Args["lost_host"], n.Args["lost_why"], n.Args["lost_requests"] = l.Group, l.Host, l.Why, l.Requests
	}
	return n
}

// OpenLoopLimit says why an open-loop group, judged alone, missed more than MaxMissedShare of its
// starts: ClientBound, CPUsTaken (others kept its CPUs busy) or SlotsExhausted; "" when it did not.
func OpenLoopLimit(g *results.Group) string {
	why, _ := openLoopLimit(g, RepGroupCPUs(&results.Rep{Groups: []results.Group{*g}}))
	return why
}

// openLoopLimit is OpenLoopLimit with the groups' CPU use, and g's (nil: unknown).
func openLoopLimit(g *results.Group, all []GroupCPU) (string, *GroupCPU) {
	var gc *GroupCPU
	if k := slices.IndexFunc(all, func(c GroupCPU) bool { return c.Index == g.Index }); k >= 0 {
		gc = &all[k]
	}
	switch {
	case g.MissedShare() <= results.MaxMissedShare:
		return "", gc
	case gc != nil && gc.ClientBound:
		return results.ClientBound, gc
	case gc != nil && gc.Busy >= results.ClientBoundBusy:
		return results.CPUsTaken, gc
	}
	return results.SlotsExhausted, gc
}

// missedLine names rep's groups that missed more than MaxMissedShare of their starts, and why.
func missedLine(rep *results.Rep, all []GroupCPU) notes.Note {
	var parts []notes.Note
	for i := range rep.Groups {
		g := &rep.Groups[i]
		why, gc := openLoopLimit(g, all)
		if why == "" {
			continue
		}
		n := notes.New(notes.MissedGroup, "index", g.Index, "limit", why, "share", g.MissedShare(), "slots", g.Slots, "measured", gc != nil)
		if gc != nil {
			n.Args["own"], n.Args["busy"], n.Args["kaeload"], n.Args["interrupts"] = gc.Own, gc.Busy, gc.Kaeload, gc.Interrupts
		}
		parts = append(parts, n)
	}
	return noteIf(len(parts) > 0, notes.MissedStarts, "groups", parts)
}

// OpenLoopLine is an open-loop total's rate asked, achieved and starts missed; zero in a closed loop.
func OpenLoopLine(t *results.Group) notes.Note {
	if t.Scheduled == 0 {
		return notes.Note{}
	}
	asked := 0.0
	if l := t.Window.Length().Seconds(); l > 0 {
		asked = float64(t.Scheduled) / l
	}
	return notes.New(notes.OpenLoop, "asked", asked, "rate", t.Rate(), "missed", t.Missed, "scheduled", t.Scheduled, "share", t.MissedShare())
}

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
