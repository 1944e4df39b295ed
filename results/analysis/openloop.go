package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// OpenLoopLimit says why an open-loop group did not keep its rate: ""
// when it missed at most MaxMissedShare of its scheduled starts (or ran a
// closed loop), ClientBound when kaeload itself used at least
// ClientBoundBusy of its CPUs, CPUsTaken when they were that busy with
// other processes, SlotsExhausted otherwise (CPU not measured included).
// It judges the group alone; a repetition's report also counts the
// workers of other groups pinned to the same CPUs as kaeload's
// (RepGroupCPUs).
func OpenLoopLimit(g *results.Group) string {
	one := results.Rep{Groups: []results.Group{*g}}
	var gc *GroupCPU
	if gcs := RepGroupCPUs(&one); len(gcs) == 1 {
		gc = &gcs[0]
	}
	return openLoopLimit(g, gc)
}

// openLoopLimit is OpenLoopLimit with the group's CPU use (nil: not
// measured).
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

// MissedLine is the loud line for a repetition in which some group missed
// more than MaxMissedShare of its starts; zero when none did.
func MissedLine(rep *results.Rep) notes.Note {
	gcs := map[int]*GroupCPU{}
	all := RepGroupCPUs(rep)
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

// OpenLoopLine describes an open-loop total: the rate asked (its
// scheduled starts over the window), the rate achieved and the starts
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
