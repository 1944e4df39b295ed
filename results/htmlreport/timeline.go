package htmlreport

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/tables"
)

// timelineSection is a block per variant with its repetitions' facts,
// diagnoses and charts; Without names the variants without a timeline.
// Diagnoses are the run's first maxClientBound diagnoses for the banner.
type timelineSection struct {
	Recorded      bool
	Variants      []timelineVariant
	Without       []string
	Diagnoses     []diagnosisLine
	DiagnosesMore int
}

// diagnosisLine is a diagnosis's title and cause, linked (Href) to its
// repetition's block when the page has one.
type diagnosisLine struct{ Text, Href string }

type timelineVariant struct {
	Name, Color, ID string
	Reps            []timelineRep
}

// timelineRep is one repetition in a <details> of its own: the first
// drawn of each variant starts Open; None says it recorded no timeline.
type timelineRep struct {
	ID, Rep, Summary string
	Open, None       bool
	Facts            []tables.Notice // tables.RepTimeline
	Diagnoses        []diagnosisBlock
	Charts           []chart
}

type diagnosisBlock struct {
	Title string
	Rows  []tables.Notice
}

// timelineSectionOf lays out the timeline of every variant of vs from m.
func timelineSectionOf(vs []variantData, m *analysis.Report) *timelineSection {
	sec := &timelineSection{}
	blocks := map[string]string{} // "variant/rep" -> the block's id
	for _, v := range measured(vs) {
		tv := timelineVariant{Name: v.V.Name, Color: cssColor(v.Color), ID: "timeline-" + strconv.Itoa(v.Index)}
		open := true // until a repetition has a timeline
		for j := range v.V.Reps {
			rep := &v.V.Reps[j]
			tr := timelineRep{ID: tv.ID + "-" + strconv.Itoa(j), Rep: strconv.Itoa(rep.Index + 1)}
			if rep.Timeline == nil || len(rep.Timeline.Points) == 0 {
				tr.None, tr.Summary = true, "no timeline recorded"
				tv.Reps = append(tv.Reps, tr)
				continue
			}
			tr.Open, open, sec.Recorded = open, false, true
			blocks[v.V.Name+"/"+strconv.Itoa(rep.Index)] = tr.ID
			ra := &v.Reps[j]
			tr.Summary, tr.Facts, tr.Charts = repTimelineSummary(rep, ra), tables.RepTimeline(&ra.Timeline), repTimelineCharts(rep, ra)
			for k := range ra.Timeline.Diagnoses {
				d := &ra.Timeline.Diagnoses[k]
				tr.Diagnoses = append(tr.Diagnoses, diagnosisBlock{Title: d.Title, Rows: tables.DiagnosisRows(d)})
			}
			tv.Reps = append(tv.Reps, tr)
		}
		if open {
			sec.Without = append(sec.Without, v.V.Name)
		} else {
			sec.Variants = append(sec.Variants, tv)
		}
	}
	for k := range m.Diagnoses {
		d := &m.Diagnoses[k]
		line := diagnosisLine{Text: tables.DiagnosisTitle(d) + ": " + d.Cause.String()}
		if id, ok := blocks[d.Variant+"/"+strconv.Itoa(d.Rep)]; ok {
			line.Href = "#" + id
		}
		sec.Diagnoses = append(sec.Diagnoses, line)
	}
	sec.Diagnoses, sec.DiagnosesMore = firstOf(sec.Diagnoses, maxClientBound)
	return sec
}

// repTimelineSummary is the line beside a repetition's number.
func repTimelineSummary(rep *results.Rep, ra *analysis.RepReport) string {
	s := "window " + strconv.FormatFloat(rep.Total.Window.Length().Seconds(), 'f', 1, 64) + " s in intervals of " + seconds(rep.Timeline.Interval.Seconds())
	if ds := ra.Timeline.Diagnoses; len(ds) > 0 {
		titles := make([]string, len(ds))
		for i := range ds {
			titles[i] = ds[i].Title
		}
		s += "; diagnosed: " + strings.Join(titles, ", ")
	} else {
		s += "; no diagnosis"
	}
	switch n := len(eventMarks(ra.Events)); n {
	case 0:
		return s + "; no kernel event"
	case 1:
		return s + "; kernel events in 1 interval"
	default:
		return s + "; kernel events in " + strconv.Itoa(n) + " intervals"
	}
}

// repTimelineCharts draws a repetition's charts on one time axis.
func repTimelineCharts(rep *results.Rep, ra *analysis.RepReport) []chart {
	ax, marks := newTimeAxis(rep.Timeline), eventMarks(ra.Events)
	out := []chart{rateTimeline(rep, ax, marks, ra.Timeline.Stalls), handshakeTimeline(rep.Timeline, ax, marks)}
	if c, ok := cpuTimeline(rep.Timeline, ax, marks); ok {
		out = append(out, c)
	}
	return out
}

// eventMark is the kernel events of one interval: one mark on the axis.
type eventMark struct {
	Start, Length time.Duration
	Events        []analysis.KernelEvent
}

// eventMarks groups evs by interval, in order of first appearance.
func eventMarks(evs []analysis.KernelEvent) []eventMark {
	var out []eventMark
	for _, e := range evs {
		i := slices.IndexFunc(out, func(m eventMark) bool { return m.Start == e.Start })
		if i < 0 {
			i, out = len(out), append(out, eventMark{Start: e.Start, Length: e.Length})
		}
		out[i].Events = append(out[i].Events, e)
	}
	return out
}
