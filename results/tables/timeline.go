package tables

import (
	"fmt"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
)

// NoTimeline is what the reports say of a repetition stored before
// timelines.
const NoTimeline = "no timeline (the run was stored before kaeload kept one)"

// RepTimeline lays out what a repetition's timeline says: its rate range,
// stalls, each host's TCP counters and the rules that could not judge it.
func RepTimeline(tl *diagnosis.Repetition) []Notice {
	if tl.NoTimeline {
		return []Notice{{"timeline", NoTimeline}}
	}
	out := []Notice{{rangeLabel(tl), RangeWords(tl)}, {"stalls", StallWords(tl)}}
	for i := range tl.Hosts {
		out = append(out, Notice{"tcp " + tl.Hosts[i].Name, TCPWords(&tl.Hosts[i])})
	}
	if tl.Listener != nil {
		out = append(out, Notice{"listener", tl.Listener.Words()})
	}
	for i := range tl.Traffic {
		if tl.Traffic[i].Shared {
			out = append(out, Notice{"other traffic", tl.Traffic[i].Words()})
		}
	}
	for i := range tl.HostOnly {
		out = append(out, Notice{"not the run's", tl.HostOnly[i].Title + ": " + tl.HostOnly[i].Line()})
	}
	for _, u := range tl.Unjudged {
		if u.S("rule") != diagnosis.RuleStalls { // said on the stalls line
			out = append(out, Notice{"not judged", u.String()})
		}
	}
	return out
}

// rangeLabel names a repetition's rate range: "rate by second", or by its
// interval when that is not a second ("rate by 250ms").
func rangeLabel(tl *diagnosis.Repetition) string {
	if tl.Interval == time.Second || tl.Interval == 0 {
		return "rate by second"
	}
	return "rate by " + tl.Interval.String()
}

// RangeWords words a repetition's rate range: "min 135.0 / median 997.5
// / max 1,010.0 req/s over 10 intervals"; NoTimeline without a timeline.
func RangeWords(tl *diagnosis.Repetition) string {
	r := tl.Range
	switch {
	case tl.NoTimeline:
		return NoTimeline
	case r == nil:
		return "no interval in the window long enough to judge"
	}
	return fmt.Sprintf("min %s / median %s / max %s req/s over %d intervals", format.Rate(r.Min), format.Rate(r.Median), format.Rate(r.Max), r.Intervals)
}

// StallWords words a repetition's stalls: "none", "3.0–5.0 s at 135.0
// req/s (median 997.5)", or why they were not judged.
func StallWords(tl *diagnosis.Repetition) string {
	switch {
	case tl.NoTimeline:
		return NoTimeline
	case !tl.StallsJudged:
		if why := tl.StallsUnjudged(); why != "" {
			return "not judged: " + why
		}
		return "not judged"
	case len(tl.Stalls) == 0:
		return "none"
	}
	return fmt.Sprintf("%s (median %s req/s)", measure.StallsCell(tl), format.Rate(tl.Stalls[0].Median))
}

// TCPWords words one host's TCP counters over the window: its role, the
// counters that grew, and those not available, each reason once.
func TCPWords(h *diagnosis.HostCounts) string {
	var grew []string
	var whys []string             // reasons, in order of first use
	gone := map[string][]string{} // counters by reason
	for _, name := range h.Counters {
		v, unread, ok := h.Get(name)
		switch {
		case !ok:
			why := h.Why(name)
			if gone[why] == nil {
				whys = append(whys, why)
			}
			gone[why] = append(gone[why], name)
		case unread > 0:
			grew = append(grew, fmt.Sprintf("%s at least +%s (%d intervals not read)", name, format.Count(v), unread))
		case v > 0:
			grew = append(grew, name+" +"+format.Count(v))
		}
	}
	s := h.Role() + ": "
	if len(whys) == 1 && len(gone[whys[0]]) == len(h.Counters) {
		return s + "every counter not available (" + whys[0] + ")"
	}
	if len(grew) == 0 {
		s += "no counter grew"
	} else {
		s += strings.Join(grew, ", ")
	}
	for i, why := range whys {
		if i == 0 {
			s += "; not available: "
		} else {
			s += "; "
		}
		s += strings.Join(gone[why], ", ") + " (" + why + ")"
	}
	return s
}

// HostOnlyLabel labels a host-only change in a report's banner.
const HostOnlyLabel = "NOT THE RUN'S"

// hostOnlyWords words a host-only change for a report's banner:
// "default, repetition 1: accept-queue overflow? ListenOverflows +493 …
// on local (…): on this host, not attributable to the run: …".
func hostOnlyWords(h *diagnosis.HostOnly) string {
	return fmt.Sprintf("%s, repetition %d: no %s: %s", h.Variant, h.Rep+1, h.Title, h.Line())
}

// DiagnosisTitle is a diagnosis's heading: "default, repetition 1:
// accept-queue overflow".
func DiagnosisTitle(d *diagnosis.Diagnosis) string {
	return fmt.Sprintf("%s, repetition %d: %s", d.Variant, d.Rep+1, d.Title)
}

// DiagnosisRows lays a diagnosis out once: cause, figure, consequence
// and fix, each a label and its sentence.
func DiagnosisRows(d *diagnosis.Diagnosis) []Notice {
	return []Notice{{"cause", d.Cause.String()}, {"figure", d.Figure}, {"consequence", d.Consequence.String()}, {"fix", d.Fix.String()}}
}
