package htmlreport

import (
	"bytes"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// rect is an axis-aligned rectangle of a chart, in SVG units.
type rect struct{ X0, X1, Y0, Y1 float64 }

// subpathRect matches one bar of a group's path as rateTimeline writes it:
// M x0 y_bottom V y_top H x1 V y_bottom z.
var subpathRect = regexp.MustCompile(`M([-0-9.]+) ([-0-9.]+)V([-0-9.]+)H([-0-9.]+)V([-0-9.]+)z`)

// pathBars parses a group's bars.
func pathBars(t *testing.T, d string) []rect {
	t.Helper()
	var out []rect
	for _, m := range subpathRect.FindAllStringSubmatch(d, -1) {
		f := make([]float64, 5)
		for i := range f {
			f[i] = atof(t, m[i+1])
		}
		if f[1] != f[4] {
			t.Fatalf("bar %q: does not close at its bottom", m[0])
		}
		out = append(out, rect{X0: f[0], X1: f[3], Y0: f[2], Y1: f[1]})
	}
	if got := strings.Count(d, "M"); got != len(out) {
		t.Fatalf("path has %d subpaths, %d of them bars: %q", got, len(out), d)
	}
	return out
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q", s)
	}
	return v
}

// polyPoints parses the points of a <polyline>.
func polyPoints(t *testing.T, n *node) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, p := range strings.Fields(n.attr["points"]) {
		x, y, ok := strings.Cut(p, ",")
		if !ok {
			t.Fatalf("bad point %q", p)
		}
		out = append(out, [2]float64{atof(t, x), atof(t, y)})
	}
	return out
}

// byClass returns the elements under n named name whose class is class.
func byClass(n *node, name, class string) []*node {
	var out []*node
	for _, m := range n.find(name) {
		if m.attr["class"] == class {
			out = append(out, m)
		}
	}
	return out
}

// chartSVG parses a timeline chart's SVG.
func chartSVG(t *testing.T, c chart) *node {
	t.Helper()
	root, err := parseStrict(string(c.SVG))
	if err != nil {
		t.Fatalf("%s: SVG not well-formed: %v", c.Class, err)
	}
	return root
}

// analyzed is the repetition of s and its analysis.
func analyzed(s tlSpec) (*results.Rep, *analysis.RepReport) {
	r := timelineRun("analyzed", 1, 1, s)
	return &r.Variants[0].Reps[0], &analysis.Analyze(r).Reps[0][0]
}

// TestTimelineCharts draws a known repetition (three groups, two seconds
// of warm-up, a six-second window with a stall at 3 s, accept-queue
// overflows at 1 s and 4 s, no handshake timed at 2 s) with its analysis
// and reads the SVG back: a bar per group and interval, stacked, heights
// in proportion to the rates (the stall a tenth, the warm-up's ramp), the
// warm-up left of the window's start line; the analysis's stall outlined
// over its interval; a mark per interval with kernel events, under that
// interval's bars, its tooltip naming every counter, host and count;
// handshake lines broken where nothing was timed; three CPU lines and the
// threshold.
func TestTimelineCharts(t *testing.T) {
	s := tlSpec{groups: 3, warmup: 2, window: 6, perGroup: 1000, stall: []int{3}, overflow: map[int]uint64{1: 120, 4: 4581}, silent: []int{2}}
	rep, ra := analyzed(s)
	if !reflect.DeepEqual(ra.Events, tlEvents(s)) {
		t.Fatalf("the analysis lists events\n%+v\nwant\n%+v", ra.Events, tlEvents(s))
	}
	if got := ra.Timeline.Stalls; len(got) != 1 || got[0].Start != 3*time.Second || got[0].End != 4*time.Second {
		t.Fatalf("the analysis finds stalls %+v, want one from 3 s to 4 s", got)
	}
	charts := repTimelineCharts(rep, ra)
	if got := len(charts); got != 3 {
		t.Fatalf("%d charts, want rate, handshake and CPU", got)
	}
	n := s.warmup + s.window

	rate := chartSVG(t, charts[0])
	groupPaths := byClass(rate, "path", "group")
	if got := len(groupPaths); got != s.groups {
		t.Fatalf("rate chart: %d group paths, want %d", got, s.groups)
	}
	bars := make([][]rect, s.groups)
	for g, p := range groupPaths {
		if got, want := p.attr["data-group"], strconv.Itoa(g); got != want {
			t.Errorf("group path %d is group %s", g, got)
		}
		bars[g] = pathBars(t, p.attr["d"])
		if got := len(bars[g]); got != n {
			t.Fatalf("group %d: %d bars, want one per interval (%d)", g, got, n)
		}
	}
	full := bars[0][s.warmup].Y1 - bars[0][s.warmup].Y0 // a group's full second
	for i := range n {
		k := i - s.warmup
		want := full * float64(s.requests(k)) / float64(s.perGroup)
		for g := range s.groups {
			b := bars[g][i]
			if h := b.Y1 - b.Y0; math.Abs(h-want) > 0.25 {
				t.Errorf("second %d group %d: bar %.1f high, want %.1f (in proportion to %d of %d responses)", k, g, h, want, s.requests(k), s.perGroup)
			}
			if g > 0 && math.Abs(b.Y1-bars[g-1][i].Y0) > 0.15 {
				t.Errorf("second %d: group %d's bar starts at %.1f, not on group %d's top %.1f (not stacked)", k, g, b.Y1, g-1, bars[g-1][i].Y0)
			}
			if b.X0 != bars[0][i].X0 || b.X1 != bars[0][i].X1 {
				t.Errorf("second %d: group %d's bar spans %.1f-%.1f, group 0's %.1f-%.1f", k, g, b.X0, b.X1, bars[0][i].X0, bars[0][i].X1)
			}
		}
	}
	start := byClass(rate, "path", "window-start")
	warm := byClass(rate, "rect", "warmup")
	if len(start) != 1 || len(warm) != 1 {
		t.Fatalf("rate chart: %d window-start lines and %d warm-up bands, want 1 each", len(start), len(warm))
	}
	x0 := atof(t, strings.Fields(strings.TrimPrefix(start[0].attr["d"], "M"))[0])
	for i := range n {
		if left := bars[0][i].X1 <= x0; left != (i < s.warmup) {
			t.Errorf("interval %d: bar at %.1f-%.1f, window starts at %.1f: warm-up bars must be left of it, window bars right", i, bars[0][i].X0, bars[0][i].X1, x0)
		}
	}
	if wx, ww := atof(t, warm[0].attr["x"]), atof(t, warm[0].attr["width"]); math.Abs(wx+ww-x0) > 0.15 {
		t.Errorf("warm-up band ends at %.1f, window starts at %.1f", wx+ww, x0)
	}
	if !strings.Contains(rate.allText(), "warm-up") {
		t.Error("rate chart does not label the warm-up")
	}

	marks := byClass(rate, "path", "event")
	if got := len(marks); got != len(s.overflow) {
		t.Fatalf("rate chart: %d event marks, want one per interval with events (%d)", got, len(s.overflow))
	}
	for j, k := range []int{1, 4} {
		m := marks[j]
		title := m.find("title")
		if len(title) != 1 {
			t.Fatalf("mark %d: %d <title> elements, want 1", j, len(title))
		}
		tip := title[0].text.String()
		c := s.overflow[k]
		for _, want := range []string{
			seconds(float64(k)) + " to " + seconds(float64(k+1)),
			"ListenOverflows +" + format.Count(c) + " on 10.0.0.2 (server)",
			"TCPSynRetrans +" + format.Count(c/2) + " on local (clients)",
		} {
			if !strings.Contains(tip, want) {
				t.Errorf("mark at %d s: tooltip %q lacks %q", k, tip, want)
			}
		}
		mx := atof(t, strings.Fields(strings.TrimPrefix(m.attr["d"], "M"))[0])
		if b := bars[0][s.warmup+k]; mx < b.X0 || mx > b.X1 {
			t.Errorf("mark at %d s is at x %.1f, not under that interval's bars (%.1f-%.1f)", k, mx, b.X0, b.X1)
		}
	}
	stalls := byClass(rate, "rect", "stall")
	labels := byClass(rate, "text", "stall-label")
	if len(stalls) != 1 || len(labels) != 1 {
		t.Fatalf("rate chart: %d stall outlines and %d labels, want 1 each", len(stalls), len(labels))
	}
	if b, x0, x1 := bars[0][s.warmup+3], atof(t, stalls[0].attr["x"]), atof(t, stalls[0].attr["x"])+atof(t, stalls[0].attr["width"]); x0 > b.X0 || x1 < b.X1 || x1-x0 > 1.5*(b.X1-b.X0) {
		t.Errorf("stall outline spans %.1f-%.1f, want the 3 s interval's bars (%.1f-%.1f)", x0, x1, b.X0, b.X1)
	}
	if tip := labels[0].allText(); !strings.Contains(tip, "stall: 3.0–4.0 s at 300.0 req/s") {
		t.Errorf("stall label %q does not give the stall's span and rate", tip)
	}
	for i, c := range charts {
		if got := len(byClass(chartSVG(t, c), "rect", "event-band")); got != len(s.overflow) {
			t.Errorf("chart %d (%s): %d event bands, want %d", i, c.Class, got, len(s.overflow))
		}
	}
	if got := len(byClass(rate, "rect", "tip")); got != n {
		t.Errorf("rate chart: %d interval tooltips, want %d", got, n)
	}
	legend := ""
	for _, l := range charts[0].Legend {
		legend += l.Name + "; "
	}
	for _, want := range []string{"group 0 (0-9)", "group 2 (20-29)", "warm-up", "TCPSynRetrans, ListenOverflows"} {
		if !strings.Contains(legend, want) {
			t.Errorf("rate legend %q lacks %q", legend, want)
		}
	}

	hs := chartSVG(t, charts[1])
	for _, class := range []string{"p50", "p99"} {
		lines := byClass(hs, "polyline", class)
		if len(lines) != 2 {
			t.Fatalf("handshake %s: %d polylines, want 2 (broken at 2 s, where nothing was timed)", class, len(lines))
		}
		a, b := polyPoints(t, lines[0]), polyPoints(t, lines[1])
		if len(a) != s.warmup+2 || len(b) != s.window-3 {
			t.Errorf("handshake %s: %d and %d points, want %d and %d", class, len(a), len(b), s.warmup+2, s.window-3)
		}
		if class == "p99" {
			// Overflows at 1 s (a's last point) and 4 s (b's second): 1.1 s, higher than 40 ms.
			if !(a[len(a)-1][1] < a[0][1]) || !(b[1][1] < b[0][1]) {
				t.Errorf("handshake p99: the overflow seconds are not higher: %v %v", a, b)
			}
		}
	}
	cpu := chartSVG(t, charts[2])
	for _, class := range []string{"process", "cpus", "server"} {
		lines := byClass(cpu, "polyline", class)
		if len(lines) != 1 || len(polyPoints(t, lines[0])) != n {
			t.Errorf("CPU %s: %d polylines, want 1 of %d points", class, len(lines), n)
		}
	}
	if got := len(byClass(cpu, "path", "threshold")); got != 1 {
		t.Errorf("CPU chart: %d threshold lines, want 1", got)
	}
}

// TestTimelineEventsFromReport: the page marks the kernel events the
// analysis lists (analysis.RepReport.Events), no others: the fixture's
// overflows, found by analysis.KernelEvents in its TCP counters, on every
// repetition.
func TestTimelineEventsFromReport(t *testing.T) {
	s := tlSpec{groups: 2, warmup: 1, window: 5, perGroup: 300, overflow: map[int]uint64{-1: 7, 2: 4581}}
	r := timelineRun("events", 1, 2, s)
	m := analysis.Analyze(r)
	for j := range r.Variants[0].Reps {
		if got, want := m.Reps[0][j].Events, tlEvents(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("rep %d: the analysis lists events\n%+v\nwant\n%+v", j, got, want)
		}
	}
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	root, err := parseStrict(b.String())
	if err != nil {
		t.Fatalf("report not well-formed: %v", err)
	}
	for j := range r.Variants[0].Reps {
		det := root.byID("timeline-0-" + strconv.Itoa(j))
		if det == nil {
			t.Fatalf("no timeline block for rep %d", j)
		}
		marks := byClass(det, "path", "event")
		if len(marks) != 2 {
			t.Fatalf("rep %d: %d event marks, want 2 (at -1 s, in the warm-up, and at 2 s)", j, len(marks))
		}
		for i, want := range []string{"−1 s to 0:\nTCPSynRetrans +3 on local (clients)\nListenOverflows +7 on 10.0.0.2 (server)",
			"2 s to 3 s:\nTCPSynRetrans +2,290 on local (clients)\nListenOverflows +4,581 on 10.0.0.2 (server)"} {
			if got := marks[i].allText(); !strings.HasSuffix(got, want) {
				t.Errorf("rep %d mark %d: tooltip %q, want it to end %q", j, i, got, want)
			}
		}
		if !strings.Contains(det.allText(), "kernel events in 2 intervals") {
			t.Errorf("rep %d: the summary does not count the intervals with kernel events: %q", j, det.find("summary")[0].allText())
		}
	}
}

// TestTimelineDiagnoses: the analysis's diagnoses are a banner at the
// top of the page, the first eight linked to their repetition's block
// and the rest counted, and each repetition's block gives its own with
// cause, figure, consequence and fix, beside its rate range, stalls and
// hosts' counters.
func TestTimelineDiagnoses(t *testing.T) {
	s := tlSpec{groups: 2, warmup: 1, window: 8, perGroup: 500, stall: []int{5}, overflow: map[int]uint64{2: 900}}
	r := timelineRun("diagnosed", 3, 3, s)
	m := analysis.Analyze(r)
	if got := len(m.Diagnoses); got < 18 {
		t.Fatalf("the analysis finds %d diagnoses, want an overflow and a stall in each of 9 repetitions", got)
	}
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	root, err := parseStrict(b.String())
	if err != nil {
		t.Fatalf("report not well-formed: %v", err)
	}
	banner := root.byID("diagnoses")
	if banner == nil {
		t.Fatal("no diagnoses banner")
	}
	items := banner.find("li")
	if got, want := len(items), maxClientBound+1; got != want {
		t.Fatalf("banner has %d lines, want %d (the first %d and a count)", got, want, maxClientBound)
	}
	for i, li := range items[:maxClientBound] {
		d := &m.Diagnoses[i]
		a := li.find("a")
		if len(a) != 1 || root.byID(strings.TrimPrefix(a[0].attr["href"], "#")) == nil {
			t.Errorf("banner line %d does not link to a block on the page", i)
			continue
		}
		if !strings.Contains(a[0].allText(), d.Title+": "+d.Cause.String()) || !strings.Contains(a[0].allText(), "repetition "+strconv.Itoa(d.Rep+1)) {
			t.Errorf("banner line %d: %q, want diagnosis %d's title and cause", i, a[0].allText(), i)
		}
	}
	if got, want := strings.Join(strings.Fields(items[maxClientBound].allText()), " "), "… and "+strconv.Itoa(len(m.Diagnoses)-maxClientBound)+" more: see the timeline"; got != want {
		t.Errorf("banner's last line %q, want %q", got, want)
	}
	block := root.byID("timeline-2-1")
	if block == nil {
		t.Fatal("no block for variant 3's repetition 2")
	}
	text := block.allText()
	ra := &m.Reps[2][1]
	for _, d := range ra.Timeline.Diagnoses {
		for _, want := range []string{"DIAGNOSIS: " + d.Title, d.Cause.String(), d.Figure, d.Consequence.String(), d.Fix.String()} {
			if !strings.Contains(text, want) {
				t.Errorf("the repetition's block lacks %q", want)
			}
		}
	}
	if !strings.Contains(text, "5.0–6.0 s") || !strings.Contains(text, "ListenOverflows +900") {
		t.Errorf("the repetition's block lacks its stall or its server's counters:\n%s", text)
	}
}

// TestTimelineOneGroup: a repetition of one group stores its intervals as
// the timeline's points (Rep.GroupTimeline); the rate chart still has a
// bar and a tooltip per interval, and no events means no mark.
func TestTimelineOneGroup(t *testing.T) {
	s := tlSpec{groups: 1, warmup: 1, window: 4, perGroup: 500}
	rep, ra := analyzed(s)
	charts := repTimelineCharts(rep, ra)
	rate := chartSVG(t, charts[0])
	paths := byClass(rate, "path", "group")
	if len(paths) != 1 {
		t.Fatalf("%d group paths, want 1", len(paths))
	}
	if got := len(pathBars(t, paths[0].attr["d"])); got != 5 {
		t.Errorf("%d bars, want 5", got)
	}
	if got := len(byClass(rate, "path", "event")); got != 0 {
		t.Errorf("%d event marks without events", got)
	}
	if got := repTimelineSummary(rep, ra); !strings.Contains(got, "no kernel event") {
		t.Errorf("summary %q does not say there was no kernel event", got)
	}
	if got := len(byClass(rate, "rect", "tip")); got != 5 {
		t.Errorf("%d interval tooltips, want 5", got)
	}

	// Intervals too narrow to point at (400 in 1,030 units) still get
	// their bars, but no tooltips.
	s.window = 399
	rep, ra = analyzed(s)
	rate = chartSVG(t, repTimelineCharts(rep, ra)[0])
	if got := len(pathBars(t, byClass(rate, "path", "group")[0].attr["d"])); got != 400 {
		t.Errorf("%d bars, want 400", got)
	}
	if got := len(byClass(rate, "rect", "tip")); got != 0 {
		t.Errorf("%d interval tooltips for 400 intervals, want none", got)
	}
}

// TestTimelineNotRecorded: a run stored before timelines existed renders,
// and says "no timeline recorded" instead of drawing. In a run where
// some have one, a repetition without says so (the next one opens), and
// variants without any are named in one line.
func TestTimelineNotRecorded(t *testing.T) {
	old, err := fixture.BeforeTimelineRun()
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseStrict(write(t, old))
	if err != nil {
		t.Fatalf("report not well-formed: %v", err)
	}
	if n := root.byID("no-timeline"); n == nil || !strings.Contains(n.allText(), "No timeline recorded") {
		t.Error(`the old run's report does not say "No timeline recorded"`)
	}
	if root.byID("timeline") == nil {
		t.Error("the report has no timeline heading")
	}
	for _, d := range root.find("div") {
		if strings.HasPrefix(d.attr["class"], "tl-chart") {
			t.Fatalf("the old run's report draws a timeline chart")
		}
	}

	s := tlSpec{groups: 2, warmup: 1, window: 3, perGroup: 100}
	r := timelineRun("mixed", 2, 2, s)
	r.Variants[0].Reps[0].Timeline = nil
	for i := range r.Variants[1].Reps {
		r.Variants[1].Reps[i].Timeline = nil
	}
	root, err = parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report not well-formed: %v", err)
	}
	if root.byID("no-timeline") != nil {
		t.Error(`a run with a timeline says "No timeline recorded"`)
	}
	if n := root.byID("timeline-0-0"); n == nil || !strings.Contains(n.allText(), "repetition 1: no timeline recorded") {
		t.Error("the repetition without a timeline does not say so")
	}
	if n := root.byID("timeline-0-1"); n == nil || n.attr["open"] != "open" || len(n.find("svg")) != 3 {
		t.Error("the variant's first repetition with a timeline is not drawn open with three charts")
	}
	if n := root.byID("timeline-without"); n == nil || !strings.Contains(n.allText(), "No timeline recorded for variant-1.") {
		t.Error("the variant without a timeline is not named in one line")
	}
	if root.byID("timeline-1") != nil {
		t.Error("the variant without a timeline has a block of its own")
	}
}

// TestTimelineSize renders a run of the size the product is for: 3
// variants × 3 repetitions × 11 groups, 5 s of warm-up and a 30 s window
// at the default interval, with a stall and overflows. The page must stay
// light: at most 450 KB in all, the timeline (charts, facts and
// diagnoses) at most 40 KB a repetition; 333 KB and 30 KB measured.
func TestTimelineSize(t *testing.T) {
	s := tlSpec{groups: 11, warmup: 5, window: 30, perGroup: 11000, stall: []int{12}, overflow: map[int]uint64{3: 4581, 4: 1200}}
	r := timelineRun("eleven-groups", 3, 3, s)
	var with bytes.Buffer
	if err := Write(&with, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for v := range r.Variants {
		for i := range r.Variants[v].Reps {
			r.Variants[v].Reps[i].Timeline = nil
			for g := range r.Variants[v].Reps[i].Groups {
				r.Variants[v].Reps[i].Groups[g].Timeline = nil
			}
		}
	}
	var without bytes.Buffer
	if err := Write(&without, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	per := float64(with.Len()-without.Len()) / 9
	t.Logf("report.html: %d bytes with the timeline, %d without; the timeline %.1f KB a repetition", with.Len(), without.Len(), per/1000)
	if with.Len() > 450_000 {
		t.Errorf("report.html is %d bytes, want at most 450 KB", with.Len())
	}
	if per > 40_000 {
		t.Errorf("the timeline takes %.0f bytes a repetition, want at most 40 KB", per)
	}
	if _, err := parseStrict(with.String()); err != nil {
		t.Errorf("report not well-formed: %v", err)
	}
}
