package results

import (
	"fmt"
	"strings"
)

// Why an open-loop group missed more than MaxMissedShare of its starts.
const (
	// ClientBound: kaeload itself used at least ClientBoundBusy of the
	// group's CPUs (GroupCPU.ClientBound), so the client could not start
	// requests on time.
	ClientBound = "CLIENT-BOUND"
	// CPUsTaken: the group's CPUs were at least ClientBoundBusy busy, but
	// mostly with other processes than kaeload: they left it too little
	// CPU to start requests on time.
	CPUsTaken = "CPUS-TAKEN"
	// SlotsExhausted: the client had CPU to spare, but every connection
	// slot was busy when starts came due: the server answered too slowly
	// for the rate with this many connections (more connections would
	// only queue more at the server).
	SlotsExhausted = "SLOTS-EXHAUSTED"
)

// OpenLoopLimit says why an open-loop group did not keep its rate: ""
// when it missed at most MaxMissedShare of its scheduled starts (or ran a
// closed loop), ClientBound when kaeload itself used at least
// ClientBoundBusy of its CPUs, CPUsTaken when they were that busy with
// other processes, SlotsExhausted otherwise (CPU not measured included).
// It judges the group alone; a repetition's report also counts the
// workers of other groups pinned to the same CPUs as kaeload's
// (Rep.GroupCPUs).
func (g *Group) OpenLoopLimit() string {
	one := Rep{Groups: []Group{*g}}
	var gc *GroupCPU
	if gcs := one.GroupCPUs(); len(gcs) == 1 {
		gc = &gcs[0]
	}
	return openLoopLimit(g, gc)
}

// openLoopLimit is OpenLoopLimit with the group's CPU use (nil: not
// measured).
func openLoopLimit(g *Group, gc *GroupCPU) string {
	switch {
	case g.MissedShare() <= MaxMissedShare:
		return ""
	case gc != nil && gc.ClientBound:
		return ClientBound
	case gc != nil && gc.Busy >= ClientBoundBusy:
		return CPUsTaken
	}
	return SlotsExhausted
}

// missedLine is the loud line for a repetition in which some group missed
// more than MaxMissedShare of its starts, "" when none did.
func missedLine(rep *Rep) string {
	gcs := map[int]*GroupCPU{}
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
		case ClientBound:
			detail = fmt.Sprintf("kaeload used %.0f %% of its CPUs", (gc.Kaeload+gc.Interrupts)*100)
			if !gc.Own {
				detail = fmt.Sprintf("CPUs %.0f %% busy", gc.Busy*100)
			}
		case CPUsTaken:
			detail = fmt.Sprintf("CPUs %.0f %% busy, kaeload's own use %.0f %%", gc.Busy*100, gc.Kaeload*100)
		default:
			detail = fmt.Sprintf("all %d connection slots busy", g.Slots)
			if gc != nil {
				detail += fmt.Sprintf(", CPUs %.0f %% busy", gc.Busy*100)
			}
		}
		parts = append(parts, fmt.Sprintf("group %d %s (missed %s of its starts; %s)", g.Index, why, FormatShare(g.MissedShare()), detail))
	}
	if len(parts) == 0 {
		return ""
	}
	return "MISSED STARTS: " + strings.Join(parts, ", ") + ": the rate asked was not kept"
}

// openLoopLine describes an open-loop total: the rate asked (its scheduled
// starts over the window), the rate achieved and the starts missed; "" in
// a closed loop.
func openLoopLine(t *Group) string {
	if t.Scheduled == 0 {
		return ""
	}
	l := t.Window.Length().Seconds()
	asked := 0.0
	if l > 0 {
		asked = float64(t.Scheduled) / l
	}
	return fmt.Sprintf("%s/s asked, %s/s achieved; %s of %s starts missed (%s)",
		FormatRate(asked), FormatRate(t.Rate()), FormatCount(t.Missed), FormatCount(t.Scheduled), FormatShare(t.MissedShare()))
}
