package htmlreport

import (
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/tables"
)

// timelineSection is the page's timeline: a block per variant, each with
// its repetitions' facts, diagnoses and charts; Recorded is false when no
// repetition of the run has a timeline (a run stored before timelines
// existed), and the page then says so once instead of drawing anything.
type timelineSection struct {
	Recorded bool
	Variants []timelineVariant
	// Without names the variants none of whose repetitions recorded a
	// timeline, in a run where others did: one line for all of them.
	Without []string
	// Diagnoses are the run's first maxClientBound diagnoses
	// (analysis.Report.Diagnoses), one line each for the banner at the
	// top of the page, linked to their repetition's block;
	// DiagnosesMore counts the others.
	Diagnoses     []diagnosisLine
	DiagnosesMore int
}

// diagnosisLine is one diagnosis in the banner: its title and cause.
type diagnosisLine struct {
	Text string
	// Href is "#" and the id of the repetition's block; "" when the
	// repetition has none on the page.
	Href string
}

// timelineVariant is one variant's repetitions on the timeline.
type timelineVariant struct {
	Name  string
	Color string
	// ID is the HTML id of the variant's block ("timeline-0").
	ID   string
	Reps []timelineRep
}

// timelineRep is one repetition's timeline, shown in a <details> element
// of its own; the first drawn of each variant starts open.
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
	// Facts are what the analysis says of its timeline
	// (tables.RepTimeline): rate range, stalls, each host's TCP
	// counters, the rules that could not judge it.
	Facts []fact
	// Diagnoses are its diagnoses, each with cause, figure, consequence
	// and fix.
	Diagnoses []diagnosisBlock
	// Charts are the rate, handshake and CPU charts, on one time axis.
	Charts []timelineChart
}

// fact is a label and its sentence.
type fact struct{ Label, Text string }

// diagnosisBlock is one diagnosis of a repetition.
type diagnosisBlock struct {
	Title string
	Rows  []fact
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

// timelineSectionOf lays out the timeline of every variant of vs from
// the report m: each repetition's analysis (m.Reps: its timeline's
// facts, diagnoses and kernel events) and the run's diagnoses.
func timelineSectionOf(vs []variantData, m *analysis.Report) *timelineSection {
	sec := &timelineSection{}
	blocks := map[string]string{} // "variant/rep" -> the block's id
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
			ra := &m.Reps[v.Index][j]
			blocks[v.V.Name+"/"+strconv.Itoa(rep.Index)] = tr.ID
			tr.Summary = repTimelineSummary(rep, ra)
			for _, n := range tables.RepTimeline(&ra.Timeline) {
				tr.Facts = append(tr.Facts, fact{n.Label, n.Text})
			}
			for k := range ra.Timeline.Diagnoses {
				d := &ra.Timeline.Diagnoses[k]
				b := diagnosisBlock{Title: d.Title}
				for _, n := range tables.DiagnosisRows(d) {
					b.Rows = append(b.Rows, fact{n.Label, n.Text})
				}
				tr.Diagnoses = append(tr.Diagnoses, b)
			}
			tr.Charts = repTimelineCharts(rep, ra)
			tv.Reps = append(tv.Reps, tr)
		}
		sec.Variants = append(sec.Variants, tv)
	}
	for k := range m.Diagnoses {
		if k == maxClientBound {
			sec.DiagnosesMore = len(m.Diagnoses) - k
			break
		}
		d := &m.Diagnoses[k]
		line := diagnosisLine{Text: tables.DiagnosisTitle(d) + ": " + d.Cause.String()}
		if id, ok := blocks[d.Variant+"/"+strconv.Itoa(d.Rep)]; ok {
			line.Href = "#" + id
		}
		sec.Diagnoses = append(sec.Diagnoses, line)
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
// window and interval, its diagnoses by title, and how many intervals
// had kernel events.
func repTimelineSummary(rep *results.Rep, ra *analysis.RepReport) string {
	t := rep.Timeline
	s := "window " + strconv.FormatFloat(rep.Total.Window.Length().Seconds(), 'f', 1, 64) + " s in intervals of " + seconds(t.Interval.Seconds())
	if ds := ra.Timeline.Diagnoses; len(ds) > 0 {
		titles := make([]string, len(ds))
		for i := range ds {
			titles[i] = ds[i].Title
		}
		s += "; diagnosed: " + strings.Join(titles, ", ")
	} else {
		s += "; no diagnosis"
	}
	if n := len(eventMarks(ra.Events)); n > 0 {
		s += "; kernel events in " + strconv.Itoa(n) + " interval"
		if n > 1 {
			s += "s"
		}
	} else {
		s += "; no kernel event"
	}
	return s
}

// repTimelineCharts draws a repetition's charts on one time axis: rate
// stacked by group with its stalls and the kernel events marked,
// handshake p50 and p99, client and server CPU; ra is its analysis.
func repTimelineCharts(rep *results.Rep, ra *analysis.RepReport) []timelineChart {
	ax := newTimeAxis(rep.Timeline)
	marks := eventMarks(ra.Events)
	out := []timelineChart{rateTimeline(rep, ax, marks, ra.Timeline.Stalls), handshakeTimeline(rep.Timeline, ax, marks)}
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
