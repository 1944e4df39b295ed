package htmlreport

import (
	"html/template"
	"strconv"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// timelineSection is the page's timeline: a block per variant, each with
// its repetitions' charts; Recorded is false when no repetition of the run
// has a timeline (a run stored before timelines existed), and the page
// then says so once instead of drawing anything.
type timelineSection struct {
	Recorded bool
	Variants []timelineVariant
	// Without names the variants none of whose repetitions recorded a
	// timeline, in a run where others did: one line for all of them.
	Without []string
}

// timelineVariant is one variant's repetitions on the timeline.
type timelineVariant struct {
	Name  string
	Color string
	// ID is the HTML id of the variant's block ("timeline-0").
	ID   string
	Reps []timelineRep
}

// timelineRep is one repetition's charts, shown in a <details> element of
// its own; the first drawn of each variant starts open.
type timelineRep struct {
	// ID is the HTML id of the repetition's block ("timeline-0-1").
	ID string
	// Rep is the repetition's number as the page shows it (from 1).
	Rep string
	// Open says the repetition's block starts open.
	Open bool
	// Summary is the one line beside the repetition's number.
	Summary string
	// None says the repetition recorded no timeline.
	None bool
	// Charts are the rate, handshake and CPU charts, on one time axis.
	Charts []timelineChart
}

// timelineChart is one chart of a repetition's timeline.
type timelineChart struct {
	// Class is the chart's kind ("tl-rate", "tl-handshake", "tl-cpu").
	Class string
	Title string
	// SVG is the inline <svg> element.
	SVG template.HTML
	// Legend is drawn in HTML beside the chart's title.
	Legend []legendItem
	// Note says how to read the chart, in a line under it; "" for none.
	Note string
}

// timelineSectionOf lays out the timeline of every variant of vs; events
// returns the kernel events of repetition j of variant i, as the analysis
// lists them (analysis.RepReport.Events).
func timelineSectionOf(vs []variantData, events func(i, j int) []analysis.KernelEvent) *timelineSection {
	sec := &timelineSection{}
	for i := range vs {
		v := &vs[i]
		if len(v.V.Reps) == 0 {
			continue
		}
		tv := timelineVariant{Name: v.V.Name, Color: cssColor(v.Color), ID: "timeline-" + strconv.Itoa(v.Index)}
		if !hasTimeline(v.V) {
			sec.Without = append(sec.Without, v.V.Name)
			continue
		}
		for j := range v.V.Reps {
			rep := &v.V.Reps[j]
			tr := timelineRep{ID: tv.ID + "-" + strconv.Itoa(j), Rep: strconv.Itoa(rep.Index + 1)}
			if !hasPoints(rep) {
				tr.None, tr.Summary = true, "no timeline recorded"
				tv.Reps = append(tv.Reps, tr)
				continue
			}
			tr.Open = !anyDrawn(tv.Reps) // the variant's first drawn repetition
			sec.Recorded = true
			var evs []analysis.KernelEvent
			if events != nil {
				evs = events(i, j)
			}
			tr.Summary = repTimelineSummary(rep, evs)
			tr.Charts = repTimelineCharts(rep, evs)
			tv.Reps = append(tv.Reps, tr)
		}
		sec.Variants = append(sec.Variants, tv)
	}
	return sec
}

// hasTimeline reports whether a repetition of v recorded a timeline.
func hasTimeline(v *results.Variant) bool {
	for j := range v.Reps {
		if hasPoints(&v.Reps[j]) {
			return true
		}
	}
	return false
}

// hasPoints reports whether rep recorded a timeline with an interval.
func hasPoints(rep *results.Rep) bool { return rep.Timeline != nil && len(rep.Timeline.Points) > 0 }

// anyDrawn reports whether one of reps has charts.
func anyDrawn(reps []timelineRep) bool {
	for _, r := range reps {
		if !r.None {
			return true
		}
	}
	return false
}

// repTimelineSummary is the line beside a repetition's number: its
// window, interval and number of intervals with kernel events.
func repTimelineSummary(rep *results.Rep, evs []analysis.KernelEvent) string {
	t := rep.Timeline
	s := "window " + strconv.FormatFloat(rep.Total.Window.Length().Seconds(), 'f', 1, 64) + " s in intervals of " + seconds(t.Interval.Seconds())
	if n := len(eventMarks(evs)); n > 0 {
		s += ", kernel events in " + strconv.Itoa(n) + " interval"
		if n > 1 {
			s += "s"
		}
	} else {
		s += ", no kernel event"
	}
	return s
}

// repTimelineCharts draws a repetition's charts on one time axis: rate
// stacked by group with the kernel events marked, handshake p50 and p99,
// client and server CPU.
func repTimelineCharts(rep *results.Rep, evs []analysis.KernelEvent) []timelineChart {
	ax := newTimeAxis(rep.Timeline)
	marks := eventMarks(evs)
	out := []timelineChart{rateTimeline(rep, ax, marks), handshakeTimeline(rep.Timeline, ax, marks)}
	if c, ok := cpuTimeline(rep.Timeline, ax, marks); ok {
		out = append(out, c)
	}
	return out
}

// eventMark is the kernel events of one interval: one mark on the time
// axis, its tooltip naming each counter, host and count.
type eventMark struct {
	Start, Length time.Duration
	Events        []analysis.KernelEvent
}

// eventMarks groups evs by interval, in the order the analysis lists
// them (intervals in order of first appearance).
func eventMarks(evs []analysis.KernelEvent) []eventMark {
	var out []eventMark
	index := map[time.Duration]int{}
	for _, e := range evs {
		i, ok := index[e.Start]
		if !ok {
			i = len(out)
			index[e.Start] = i
			out = append(out, eventMark{Start: e.Start, Length: e.Length})
		}
		out[i].Events = append(out[i].Events, e)
	}
	return out
}
