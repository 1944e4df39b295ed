package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"strings"
)

// OpenLoopLimit says why an open-loop group did not keep its rate: ""
// when it missed at most MaxMissedShare of its scheduled starts (or ran a
// closed loop), ClientBound when kaeload itself used at least
// ClientBoundBusy of its CPUs, CPUsTaken when they were that busy with
// other processes, SlotsExhausted otherwise (CPU not measured included).
// It judges the group alone; a repetition's report also counts the
// workers of other groups pinned to the same CPUs as kaeload's
// (Rep.GroupCPUs).
func OpenLoopLimit(g *results.Group) string {
	one := results.Rep{Groups: []results.Group{*g}}
	var gc *results.GroupCPU
	if gcs := one.GroupCPUs(); len(gcs) == 1 {
		gc = &gcs[0]
	}
	return openLoopLimit(g, gc)
}

// openLoopLimit is OpenLoopLimit with the group's CPU use (nil: not
// measured).
func openLoopLimit(g *results.Group, gc *results.GroupCPU) string {
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
// more than MaxMissedShare of its starts, "" when none did.
func MissedLine(rep *results.Rep) string {
	gcs := map[int]*results.GroupCPU{}
	all := rep.GroupCPUs()
	for i := range all {
		gcs[all[i].Index] = &all[i]
	}
	var parts []string
	for i := range rep.Groups {
		g := &rep.Groups[i]
		gc := gcs[g.Index]
		why := openLoopLimit(g, gc)
		var detail string
		switch why {
		case "":
			continue
		case results.ClientBound:
			detail = fmt.Sprintf("kaeload used %.0f %% of its CPUs", (gc.Kaeload+gc.Interrupts)*100)
			if !gc.Own {
				detail = fmt.Sprintf("CPUs %.0f %% busy", gc.Busy*100)
			}
		case results.CPUsTaken:
			detail = fmt.Sprintf("CPUs %.0f %% busy, kaeload's own use %.0f %%", gc.Busy*100, gc.Kaeload*100)
		default:
			detail = fmt.Sprintf("all %d connection slots busy", g.Slots)
			if gc != nil {
				detail += fmt.Sprintf(", CPUs %.0f %% busy", gc.Busy*100)
			}
		}
		parts = append(parts, fmt.Sprintf("group %d %s (missed %s of its starts; %s)", g.Index, why, format.Share(g.MissedShare()), detail))
	}
	if len(parts) == 0 {
		return ""
	}
	return "MISSED STARTS: " + strings.Join(parts, ", ") + ": the rate asked was not kept"
}

// OpenLoopLine describes an open-loop total: the rate asked (its scheduled
// starts over the window), the rate achieved and the starts missed; "" in
// a closed loop.
func OpenLoopLine(t *results.Group) string {
	if t.Scheduled == 0 {
		return ""
	}
	l := t.Window.Length().Seconds()
	asked := 0.0
	if l > 0 {
		asked = float64(t.Scheduled) / l
	}
	return fmt.Sprintf("%s/s asked, %s/s achieved; %s of %s starts missed (%s)",
		format.Rate(asked), format.Rate(t.Rate()), format.Count(t.Missed), format.Count(t.Scheduled), format.Share(t.MissedShare()))
}
