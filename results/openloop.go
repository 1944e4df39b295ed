package results

import (
	"fmt"
	"strings"
)

// Why an open-loop group missed more than MaxMissedShare of its starts.
const (
	// ClientBound: the group's CPUs were at least ClientBoundBusy busy,
	// so the client could not start requests on time.
	ClientBound = "CLIENT-BOUND"
	// SlotsExhausted: the client had CPU to spare, but every connection
	// slot was busy when starts came due: the server answered too slowly
	// for the rate with this many connections (more connections would
	// only queue more at the server).
	SlotsExhausted = "SLOTS-EXHAUSTED"
)

// OpenLoopLimit says why an open-loop group did not keep its rate: ""
// when it missed at most MaxMissedShare of its scheduled starts (or ran a
// closed loop), ClientBound when its CPUs were at least ClientBoundBusy
// busy, SlotsExhausted otherwise (CPU not measured included).
func (g *Group) OpenLoopLimit() string {
	if g.MissedShare() <= MaxMissedShare {
		return ""
	}
	if c := g.CPU; c != nil && c.Busy >= ClientBoundBusy {
		return ClientBound
	}
	return SlotsExhausted
}

// missedLine is the loud line for a repetition in which some group missed
// more than MaxMissedShare of its starts, "" when none did.
func missedLine(rep *Rep) string {
	var parts []string
	for i := range rep.Groups {
		g := &rep.Groups[i]
		why := g.OpenLoopLimit()
		if why == "" {
			continue
		}
		detail := fmt.Sprintf("all %d connection slots busy", g.Slots)
		if g.CPU != nil {
			detail += fmt.Sprintf(", CPUs %.0f %% busy", g.CPU.Busy*100)
		}
		if why == ClientBound {
			detail = fmt.Sprintf("CPUs %.0f %% busy", g.CPU.Busy*100)
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
