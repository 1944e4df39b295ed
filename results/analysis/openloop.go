package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// OpenLoopLimit says why an open-loop group, judged alone, missed more
// than MaxMissedShare of its starts: ClientBound, CPUsTaken (others kept
// its CPUs busy) or SlotsExhausted; "" when it did not.
func OpenLoopLimit(g *results.Group) string {
	one := results.Rep{Groups: []results.Group{*g}}
	var gc *GroupCPU
	if gcs := RepGroupCPUs(&one); len(gcs) == 1 {
		gc = &gcs[0]
	}
	return openLoopLimit(g, gc)
}

// openLoopLimit is OpenLoopLimit with the group's CPU use (nil: unknown).
func openLoopLimit(g *results.Group, gc *GroupCPU) string {
	switch {
	case g.MissedShare() <= results.MaxMissedShare:
		return ""
	case gc != nil && gc.ClientBound:
		return results.ClientBound
	case gc != nil && gc.Busy >= results.ClientBoundBusy:
		return results.CPUsTaken
	}
	return results.SlotsExhausted
}

// missedLine names rep's groups that missed more than MaxMissedShare of
// their starts, and why (with their CPU use all); zero when none did.
func missedLine(rep *results.Rep, all []GroupCPU) notes.Note {
	gcs := map[int]*GroupCPU{}
	for i := range all {
		gcs[all[i].Index] = &all[i]
	}
	var parts []notes.Note
	for i := range rep.Groups {
		g := &rep.Groups[i]
		gc := gcs[g.Index]
		why := openLoopLimit(g, gc)
		if why == "" {
			continue
		}
		n := notes.New(notes.MissedGroup, "index", g.Index, "limit", why, "share", g.MissedShare(), "slots", g.Slots, "measured", gc != nil)
		if gc != nil {
			n.Args["own"], n.Args["busy"], n.Args["kaeload"], n.Args["interrupts"] = gc.Own, gc.Busy, gc.Kaeload, gc.Interrupts
		}
		parts = append(parts, n)
	}
	if len(parts) == 0 {
		return notes.Note{}
	}
	return notes.New(notes.MissedStarts, "groups", parts)
}

// OpenLoopLine is an open-loop total's rate asked, achieved and starts
// missed; zero in a closed loop.
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
