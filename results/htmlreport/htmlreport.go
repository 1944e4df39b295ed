package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// Write writes m as one self-contained HTML page (report.html): inline
// CSS and SVG, no script and no outside reference, so it opens offline.
// It shows the run's facts and banners, the charts, each repetition's
// timeline and the tables (docs/outputs.md lists them), the catalogue's
// HTML measures among them. A chart that cannot be drawn is replaced by a
// note saying why. It returns any error of w.
func Write(w io.Writer, m *analysis.Report) error {
	r := m.Run
	pg, err := newPage(m)
	if err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pg); err != nil {
		return fmt.Errorf("write html report %q: %w", r.Name, err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write html report %q: %w", r.Name, err)
	}
	return nil
}

// page is what the template renders.
type page struct {
	Name        string
	Started     string
	Finished    string
	Took        string
	Baseline    string
	Interrupted bool
	// Incomplete marks a run rebuilt from its journal before it ended.
	Incomplete bool
	// Failed lists the variants with failed repetitions.
	Failed []string
	// NotMeasured are the variants the run gave up on, one line each
	// (analysis.NotMeasuredLines).
	NotMeasured []string
	// Partial are the windows an interrupt cut short, one line each
	// (analysis.PartialLines).
	Partial []string
	// Excluded are the windows the exclude_flagged policy set aside, one
	// line each (analysis.ExcludedLines).
	Excluded []string
	Warnings []string
	// Hints are analysis.Hints: lines, not warnings.
	Hints []string
	// Hosts describes the run's ssh hosts (format.HostLine), if any.
	Hosts []string
	// Thresholds are the threshold checks, one line each
	// (ThresholdCheck.Line); Crossed how many did not pass.
	Thresholds []string
	Crossed    int
	// ClientBound lists the first maxClientBound client-bound groups;
	// ClientBoundMore counts the others.
	ClientBound     []string
	ClientBoundMore int
	Threshold       string
	Alpha           string
	NoVariants      bool
	// Order says in what order the windows ran; StatsNote how the
	// comparison decides.
	Order     string
	StatsNote string
	// Drift is the drift-by-round table; nil with fewer than two rounds.
	Drift *driftSection
	// Capacity is the capacity search; nil for other runs.
	Capacity *capacitySection
	// Search is what the run's search found; nil without one.
	Search *searchSection
	// Metrics is the live metrics line (analysis.MetricsLine); "" without.
	Metrics string

	// Timeline is every repetition's charts over time; nil without variants.
	Timeline *timelineSection

	Charts     []chart
	Comparison []comparisonRow
	// VariantMeasures and RepMeasures label the catalogue's columns that
	// the HTML report shows beside its own (results/measure); ColsV and
	// ColsR count each table's columns.
	VariantMeasures, RepMeasures []string
	ColsV, ColsR                 int
	Variants                     []variantRow
	Reps                         []repRow
	// NotCounted are the repetitions' counts outside their windows, one
	// row per repetition that has any.
	NotCounted []notCountedRow
	Latency    []latencyRow
	// OpenLoop is, per variant of an open-loop run, its starts due and
	// missed and its latency from the intended start; nil in a closed loop.
	OpenLoop []openLoopRow
	Groups   []groupRow
	CPU      []cpuRow
	// ServerCost is, per variant whose server CPU was read, the requests
	// per server CPU-second over its repetitions: what offload saves.
	ServerCost []serverCostRow
	Errors     []errorRow
	Negotiated []negotiatedRow
	Probes     []probeRow
	// Speed is the crypto speed section; nil when no variant ran a speed
	// command.
	Speed *speedSection
	// Profile is the server profile section; nil when the run did not
	// profile its server.
	Profile *profileSection
	Plan    string
}

// serverCostRow is a variant's server CPU cost (VariantSummary's
// ServerCPU fields): its repetitions with a reading, their server CPU
// time and the requests per server CPU-second.
type serverCostRow struct {
	Variant, Reps, Seconds, PerSecond string
	// CI is the 95 % interval of the repetitions' requests per server
	// CPU-second (ServerCPUStats); Delta the comparison with the
	// baseline's (measure.ServerCPUDeltaCell).
	CI, Delta string
}

// driftSection is every variant's req/s by round.
type searchSection struct {
	Lines  []string
	Header []string
	Rows   [][]string
}

type driftSection struct {
	Title  string
	Header []string
	Rows   [][]string
}

type comparisonRow struct {
	Variant, Color, N, Mean, StdDev, CI, Delta, P, PAdj, MDE, Verdict, P99Handshake string
	IsBase, Significant                                                             bool
	// ClientUs is the client's CPU µs per request over the repetitions
	// (VariantSummary.ClientMicrosPerRequest), dash when not measured.
	ClientUs string
	// Failed is "FAILED" or "FAILED (k of n reps)" for a variant with
	// failed repetitions, "" otherwise.
	Failed string
	// Errors are the variant's errors over its repetitions, PerServerCPU
	// its requests per server CPU-second (dash when not measured) and
	// Notes the comparison's notes (measure.NotesCell), as the text
	// report's comparison has them.
	Errors, PerServerCPU, Notes string
	// Measures are the catalogue's cells (page.VariantMeasures).
	Measures []string
}

type variantRow struct {
	Variant, Color, Series, Sweep, Env, Reps string
	// Info are the server's info commands' lines (results.InfoRun.Line).
	Info []string
}

type repRow struct {
	Variant, Rep, Window, Requests, Rate, Errors, Handshakes, Resumed, Connections, Status, P99Total string
	// ClientUs is the client's CPU µs per request (Rep.ClientCPU), dash
	// when not measured.
	ClientUs string
	// Failed is the repetition's failure (results.Rep.Failed), "" when good.
	Failed string
	// Flagged is set on a repetition that measured the client or whose
	// CPUs other processes shared (its RepReport's ClientBound and
	// OtherLoad lines, shown on rows of their own): it is highlighted.
	Flagged bool
	// Notes are the repetition's other loud lines (RepReport: missed
	// starts, back-off, the open loop), each on a row of its own.
	Notes []string
	// Measures are the catalogue's cells (page.RepMeasures).
	Measures []string
}

// notCountedRow is one repetition's counts outside its window: responses
// and errors of the warm-up; of the requests in flight at the window's
// end, those completed in the drain (Late) and those that failed or were
// cut off (Abandoned), split by stage; and TIME_WAIT sockets after.
type notCountedRow struct {
	Variant, Rep, Warmup, WarmupErrors, Late, AfterErrors, Abandoned, Connect, Handshake, Response, TimeWait string
}

// openLoopRow is one variant's open loop over its repetitions
// (VariantSummary.Scheduled, .Missed, .Intended).
type openLoopRow struct {
	Variant, Scheduled, Missed, P50, P99, P999 string
}

type latencyRow struct {
	Variant, Metric, Count, P50, P90, P99, P999, Max string
}

type groupRow struct {
	Variant, Group, CPUs, Threads, Slots, Rate, RateRange, Busy string
	Hot                                                         bool
}

type cpuRow struct {
	Variant, Rep, ClientMax, Busiest, ClientMean, Server, ServerSeconds string
	Hot                                                                 bool
}

type errorRow struct {
	Variant, Rep, Class, Count, First string
}

type negotiatedRow struct {
	Variant, Params, Count, Share string
}

type probeRow struct {
	Variant, Rep, Probe, Before, After, Delta, Error string
}

// speedSection is the crypto speed table: analysis.SpeedTable's header and
// cells, the commands and the failed runs.
type speedSection struct {
	Baseline string
	Commands []speedCommand
	Header   []speedCell
	Rows     [][]speedCell
	Failures []speedFailure
}

type speedCommand struct {
	Index, Line string
}

type speedCell struct {
	Text string
	Num  bool
}

type speedFailure struct {
	Variant, Command, Line, Error string
}

// maxClientBound is how many client-bound groups the banner lists.
const maxClientBound = 8

// timeLayout is how the page shows times.
const timeLayout = "2006-01-02 15:04:05 MST"

// newPage lays out everything the page shows from the report m.
func newPage(m *analysis.Report) (*page, error) {
	if m.Err != nil {
		return nil, m.Err
	}
	r := m.Run
	pg := &page{
		Name:        r.Name,
		Interrupted: r.Interrupted,
		Incomplete:  r.Incomplete,
		NotMeasured: m.NotMeasured.Strings(),
		Partial:     m.Partial.Strings(),
		Excluded:    m.Excluded.Strings(),
		Metrics:     m.Metrics.String(),
		Warnings:    m.Warnings,
		Hints:       m.Hints.Strings(),
		Hosts:       hostLines(r.Hosts),
		Threshold:   strconv.FormatFloat(results.ClientBoundBusy*100, 'f', -1, 64) + " %",
		Alpha:       strconv.FormatFloat(stats.Alpha, 'f', -1, 64),
		NoVariants:  len(r.Variants) == 0,
	}
	if !r.Started.IsZero() {
		pg.Started = r.Started.Format(timeLayout)
	}
	if !r.Finished.IsZero() {
		pg.Finished = r.Finished.Format(timeLayout)
		if !r.Started.IsZero() {
			pg.Took = r.Finished.Sub(r.Started).Round(time.Second).String()
		}
	}
	for _, c := range m.Thresholds {
		pg.Thresholds = append(pg.Thresholds, c.Line())
		if !c.Passed {
			pg.Crossed++
		}
	}
	pg.Plan = planText(r.Plan)
	if len(r.Variants) == 0 {
		return pg, nil
	}
	sum := m.Summary
	vs := newVariantData(m)
	var base *variantData // nil when the baseline was not measured
	if sum.Baseline >= 0 {
		base = &vs[sum.Baseline]
	}
	pg.Baseline = sum.BaselineLine()
	pg.Order, pg.StatsNote = tables.OrderLine(r), tables.StatsNote(sum)
	if nc := sum.NoComparison(); nc != "" {
		pg.StatsNote = strings.ToUpper(nc[:1]) + nc[1:]
	}
	if h, rows, title, ok := tables.DriftRows(sum); ok {
		pg.Drift = &driftSection{Title: title, Header: h, Rows: rows}
	}
	if lines, h, rows, ok := tables.SearchRows(m.Search); ok {
		pg.Search = &searchSection{Lines: lines, Header: h, Rows: rows}
	}
	pg.Failed = m.Failed
	pg.ClientBound, pg.ClientBoundMore = firstOf(m.ClientBoundGroups.Strings(), maxClientBound)

	pg.Capacity = capacitySectionOf(m)
	pg.Charts = charts(m, vs, base)
	pg.Timeline = timelineSectionOf(vs, m)
	pg.Speed = speedSectionOf(m.Speed)
	pg.Profile = profileSectionOf(m.Profile)

	pg.addVariants(m, vs, base)
	return pg, nil
}

// charts are the page's charts, in order.
func charts(m *analysis.Report, vs []variantData, base *variantData) []chart {
	var out []chart
	out = append(out, capacityCharts(m)...)
	out = append(out, rateChart(vs))
	verdicts := map[string]string{}
	for k := range m.Summary.Sweeps {
		sw := &m.Summary.Sweeps[k]
		verdicts[sw.Series] = tables.PlateauLine(m.Summary, sw)
	}
	out = append(out, sweepCharts(sweepSeries(m.Summary.Sweeps, vs), base, verdicts, m.SoftRatio)...)
	ratioOf := map[string]string{}
	for _, v := range m.Run.Variants {
		ratioOf[v.Name] = v.Env[analysis.SoftRatioEnv]
	}
	if c, ok := searchChart(m.Search, m.SoftRatio, ratioOf); ok {
		out = append(out, c)
	}
	out = append(out,
		cdfChart(vs, "chart-cdf-handshake", "TLS handshake", func(s *analysis.VariantSummary) *results.Histogram { return s.Handshake }),
		cdfChart(vs, "chart-cdf-total", "total request time", func(s *analysis.VariantSummary) *results.Histogram { return s.Total }),
		groupChart(vs))
	if c, ok := cpuChart(vs); ok {
		out = append(out, c)
	}
	return out
}

// addVariants adds the rows of every variant in vs and of its
// repetitions to pg's tables, with the catalogue's HTML measures.
func (pg *page) addVariants(m *analysis.Report, vs []variantData, base *variantData) {
	vcols, rcols := measure.Columns(m, measure.HTML), measure.Columns(m, measure.HTML)
	vcols = slices.DeleteFunc(vcols, func(c measure.Column) bool { return c.Variant == nil })
	rcols = slices.DeleteFunc(rcols, func(c measure.Column) bool { return c.Rep == nil })
	pg.VariantMeasures, pg.RepMeasures = columnLabels(vcols), columnLabels(rcols)
	pg.ColsV, pg.ColsR = 13+len(vcols), 12+len(rcols)
	for i := range vs {
		v := &vs[i]
		row := comparisonRowOf(v, base)
		x := measure.NewVariant(m, v.Index)
		for _, c := range vcols {
			row.Measures = append(row.Measures, c.Text(c.OfVariant(x)))
		}
		pg.Comparison = append(pg.Comparison, row)
		pg.Variants = append(pg.Variants, variantRowOf(v))
		pg.Latency = append(pg.Latency, latencyRows(v)...)
		if v.Sum.Scheduled > 0 {
			q := func(q float64) string { return cell(format.QuantileMillis(v.Sum.Intended, q)) }
			pg.OpenLoop = append(pg.OpenLoop, openLoopRow{Variant: v.V.Name, Scheduled: format.Count(v.Sum.Scheduled),
				Missed: format.Count(v.Sum.Missed), P50: q(50), P99: q(99), P999: q(99.9)})
		}
		if x, ok := v.Sum.RequestsPerServerCPU(); ok {
			pg.ServerCost = append(pg.ServerCost, serverCostRow{Variant: v.V.Name, Reps: strconv.Itoa(v.Sum.ServerCPUReps),
				Seconds: fmt.Sprintf("%.2f s", v.Sum.ServerCPUSeconds), PerSecond: format.Rate(x),
				CI: measure.CICell(v.Sum.ServerCPUStats), Delta: measure.ServerCPUDeltaCell(v.Sum)})
		}
		pg.Groups = append(pg.Groups, groupRows(v)...)
		pg.Negotiated = append(pg.Negotiated, negotiatedRows(v)...)
		for j := range v.V.Reps {
			rep := &v.V.Reps[j]
			row := repRowOf(v.V.Name, rep, &m.Reps[v.Index][j])
			x := measure.NewRep(m, v.Index, j)
			for _, c := range rcols {
				row.Measures = append(row.Measures, c.Text(c.OfRep(x)))
			}
			pg.Reps = append(pg.Reps, row)
			if row, ok := notCountedRowOf(v.V.Name, rep); ok {
				pg.NotCounted = append(pg.NotCounted, row)
			}
			pg.Errors = append(pg.Errors, errorRows(v.V.Name, rep)...)
			pg.Probes = append(pg.Probes, probeRows(v.V.Name, rep)...)
			if c := cpuOf(rep, &v.Reps[j]); !math.IsNaN(c.ClientMax) || !math.IsNaN(c.Server) {
				pg.CPU = append(pg.CPU, cpuRowOf(v.V.Name, rep, c, &v.Reps[j]))
			}
		}
	}
}

// speedSectionOf lays out the crypto speed table st (nil: none) with the
// text report's cells, format.Missing shown as dash.
func speedSectionOf(st *analysis.SpeedTable) *speedSection {
	if st == nil {
		return nil
	}
	sec := &speedSection{Baseline: st.BaselineName}
	if st.Baseline < 0 {
		sec.Baseline += " (not measured: no Δ %)"
	}
	for i, c := range st.Commands {
		sec.Commands = append(sec.Commands, speedCommand{Index: strconv.Itoa(i), Line: c})
	}
	for i, h := range st.Header() {
		sec.Header = append(sec.Header, speedCell{Text: h, Num: i >= 2})
	}
	for i := range st.Rows {
		var row []speedCell
		for k, c := range st.Cells(&st.Rows[i]) {
			row = append(row, speedCell{Text: cell(c), Num: k >= 2})
		}
		sec.Rows = append(sec.Rows, row)
	}
	for _, f := range st.Failures {
		sec.Failures = append(sec.Failures, speedFailure{Variant: f.Variant, Command: strconv.Itoa(f.Command), Line: f.CommandLine, Error: f.Error})
	}
	return sec
}

// columnLabels are the columns' labels.
func columnLabels(cols []measure.Column) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Label)
	}
	return out
}

// comparisonRowOf is v's row of the comparison table; base is the
// baseline variant. The cells hold the figures of the text report's
// comparison table.
func comparisonRowOf(v, base *variantData) comparisonRow {
	s, c := v.Sum.Stats, v.Sum.Comparison
	row := comparisonRow{
		Variant: v.V.Name, Color: cssColor(v.Color), N: strconv.Itoa(s.N), IsBase: v.Sum.IsBaseline,
		Mean: dash, StdDev: dash, CI: dash, Delta: "baseline", P: dash, PAdj: dash, MDE: dash, Verdict: "baseline",
		P99Handshake: cell(format.QuantileMillis(v.Sum.Handshake, 99)), ClientUs: dash,
	}
	if us, ok := v.Sum.ClientMicrosPerRequest(); ok {
		row.ClientUs = format.Micros(us)
	}
	row.Errors, row.PerServerCPU, row.Notes = format.Count(v.Sum.Errors), dash, measure.NotesCell(v.Sum)
	if x, ok := v.Sum.RequestsPerServerCPU(); ok {
		row.PerServerCPU = format.Rate(x)
	}
	if n := v.Sum.FailedReps; n > 0 {
		row.Failed = "FAILED"
		if s.N > 1 {
			row.Failed = fmt.Sprintf("FAILED (%d of %d reps)", n, s.N)
		}
	}
	if s.N > 0 {
		row.Mean = format.Rate(s.Mean)
	}
	if s.N > 1 {
		row.StdDev = format.Rate(s.StdDev)
	}
	if s.HasCI {
		row.CI = format.Rate(s.CI95Low) + " – " + format.Rate(s.CI95High)
	}
	if !v.Sum.IsBaseline {
		row.Delta, row.P, row.PAdj, row.Significant = dash, cell(format.PValue(c)), cell(format.PAdjusted(c)), c.Significant
		row.MDE, row.Verdict = cell(measure.MDECell(v.Sum)), format.VerdictLine(c, v.Sum.VerdictCaveat.String())
		if hasDelta(v, base) {
			row.Delta = format.Delta(c.DeltaPct)
		}
	}
	return row
}

// hasDelta reports whether v's difference from the baseline base is
// defined: both have a completed repetition (base may be nil: none).
func hasDelta(v, base *variantData) bool {
	return base != nil && v.Sum.Stats.N > 0 && base.Sum.Stats.N > 0
}

func variantRowOf(v *variantData) variantRow {
	row := variantRow{
		Variant: v.V.Name, Color: cssColor(v.Color), Series: v.V.Series,
		Sweep: keyValues(v.V.Sweep), Env: keyValues(v.V.Env), Reps: strconv.Itoa(len(v.V.Reps)),
	}
	for _, in := range v.V.Info {
		row.Info = append(row.Info, in.Line())
	}
	return row
}

// keyValues renders a map as "k=v k=v" in key order.
func keyValues(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, " ")
}

func repRowOf(variant string, rep *results.Rep, ra *analysis.RepReport) repRow {
	t := &rep.Total
	row := repRow{
		Variant: variant, Rep: strconv.Itoa(rep.Index + 1),
		Window:   strconv.FormatFloat(t.Window.Length().Seconds(), 'f', 3, 64) + " s",
		Requests: format.Count(t.Requests), Rate: format.Rate(t.Rate()), Errors: format.Count(t.Errors.Total()),
		Handshakes: format.Count(t.Handshakes), Resumed: format.Count(t.Resumed), Connections: format.Count(t.Connections),
		Status: format.StatusLine(&t.Counts), P99Total: cell(format.QuantileMillis(t.Latency.Total, 99)), ClientUs: dash,
	}
	if us, _, ok := ra.ClientCPU.PerRequest(t.Requests); ok {
		row.ClientUs = format.Micros(us)
	}
	row.Failed = notes.Failure(rep.Failed).String()
	row.Flagged = ra.Flagged()
	for _, l := range (notes.List{ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.OpenLoop, ra.Missed, ra.Backoff}).Strings() {
		if l != "" {
			row.Notes = append(row.Notes, l)
		}
	}
	return row
}

// withClasses is a count of errors with its classes: "1,400 (status 1,400)".
func withClasses(n uint64, classes results.ErrorCounts) string {
	if c := format.ErrorClasses(classes); c != "" && n > 0 {
		return format.Count(n) + " (" + c + ")"
	}
	return format.Count(n)
}

// notCountedRowOf is rep's row of the not-counted table: what its groups
// counted outside the window (results.Outside) and the TIME_WAIT sockets
// after it, one figure per cell; false when it has none of them.
func notCountedRowOf(variant string, rep *results.Rep) (notCountedRow, bool) {
	o := rep.Total.Outside
	if o == (results.Outside{}) && rep.TimeWait == nil {
		return notCountedRow{}, false
	}
	f := format.Count
	row := notCountedRow{
		Variant: variant, Rep: strconv.Itoa(rep.Index + 1),
		Warmup: f(o.Warmup), WarmupErrors: withClasses(o.WarmupErrorTotal(), o.WarmupClasses), Late: f(o.Late),
		AfterErrors: withClasses(o.AfterClasses.Total(), o.AfterClasses), Abandoned: f(o.Abandoned),
		Connect: f(o.Unanswered.Connect), Handshake: f(o.Unanswered.Handshake), Response: f(o.Unanswered.Response), TimeWait: dash,
	}
	if rep.TimeWait != nil {
		row.TimeWait = f(uint64(max(*rep.TimeWait, 0)))
	}
	return row, true
}

func latencyRows(v *variantData) []latencyRow {
	if len(v.V.Reps) == 0 {
		return nil
	}
	var rows []latencyRow
	for _, m := range []struct {
		name string
		h    *results.Histogram
	}{{"connect", v.Sum.Connect}, {"handshake", v.Sum.Handshake}, {"ttfb", v.Sum.TTFB}, {"total", v.Sum.Total}} {
		q := func(q float64) string { return cell(format.QuantileMillis(m.h, q)) }
		rows = append(rows, latencyRow{
			Variant: v.V.Name, Metric: m.name, Count: format.Count(uint64(m.h.TotalCount())),
			P50: q(50), P90: q(90), P99: q(99), P999: q(99.9), Max: cell(format.MaxMillis(m.h)),
		})
	}
	return rows
}

func groupRows(v *variantData) []groupRow {
	var rows []groupRow
	for _, g := range groups(v.V) {
		cpus := g.CPUs
		if cpus == "" {
			cpus = "unpinned"
		}
		row := groupRow{
			Variant: v.V.Name, Group: strconv.Itoa(g.Index), CPUs: cpus,
			Threads: strconv.Itoa(g.Threads), Slots: strconv.Itoa(g.Slots),
			Rate: cell(format.Rate(mean(g.Rates))), Busy: cell(format.Percent(mean(g.Busy))),
		}
		if len(g.Rates) > 1 {
			lo, hi := g.Rates[0], g.Rates[0]
			for _, x := range g.Rates {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			row.RateRange = format.Rate(lo) + " – " + format.Rate(hi)
		}
		if len(g.Busy) > 1 {
			hi := g.Busy[0]
			for _, b := range g.Busy {
				hi = math.Max(hi, b)
			}
			row.Busy += " (max " + format.Percent(hi) + ")"
		}
		for _, b := range g.Busy {
			if b >= results.ClientBoundBusy {
				row.Hot = true
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func cpuRowOf(variant string, rep *results.Rep, c repCPU, ra *analysis.RepReport) cpuRow {
	row := cpuRow{
		Variant: variant, Rep: strconv.Itoa(rep.Index + 1), ClientMax: cell(format.Percent(c.ClientMax)), Busiest: dash,
		ClientMean: cell(format.Percent(c.ClientMean)), Server: cell(format.Percent(c.Server)), ServerSeconds: dash,
		Hot: len(ra.ClientBoundGroups) > 0, // the analysis's verdict: the CPUs' busy time alone never makes it
	}
	if c.Busiest >= 0 {
		row.Busiest = strconv.Itoa(c.Busiest)
	}
	if !math.IsNaN(c.ServerSeconds) {
		row.ServerSeconds = strconv.FormatFloat(c.ServerSeconds, 'f', 2, 64) + " s"
	}
	return row
}

func errorRows(variant string, rep *results.Rep) []errorRow {
	var rows []errorRow
	for c := range rep.Total.Errors {
		ec := rep.Total.Errors[c]
		if ec.Count == 0 {
			continue
		}
		first := ec.First
		if first == "" {
			first = "(no message)"
		}
		rows = append(rows, errorRow{Variant: variant, Rep: strconv.Itoa(rep.Index + 1),
			Class: results.ErrorClass(c).String(), Count: format.Count(ec.Count), First: first})
	}
	return rows
}

func negotiatedRows(v *variantData) []negotiatedRow {
	sum := map[string]uint64{}
	var total uint64
	for i := range v.V.Reps {
		for k, n := range v.V.Reps[i].Total.Negotiated {
			sum[k] += n
			total += n
		}
	}
	keys := make([]string, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if sum[keys[i]] != sum[keys[j]] {
			return sum[keys[i]] > sum[keys[j]]
		}
		return keys[i] < keys[j]
	})
	rows := make([]negotiatedRow, len(keys))
	for i, k := range keys {
		rows[i] = negotiatedRow{Variant: v.V.Name, Params: k, Count: format.Count(sum[k]), Share: cell(format.Percent(float64(sum[k]) / float64(total)))}
	}
	return rows
}

func probeRows(variant string, rep *results.Rep) []probeRow {
	names := make([]string, 0, len(rep.Probes))
	for k := range rep.Probes {
		names = append(names, k)
	}
	sort.Strings(names)
	rows := make([]probeRow, len(names))
	for i, k := range names {
		p := rep.Probes[k]
		rows[i] = probeRow{Variant: variant, Rep: strconv.Itoa(rep.Index + 1), Probe: k,
			Before: cell(format.Float(p.Before, 2)), After: cell(format.Float(p.After, 2)), Delta: cell(format.Float(p.Delta(), 2)), Error: p.Error}
	}
	return rows
}

// planText renders the encoded plan indented; as given when it is not
// valid JSON; "" when absent.
func planText(plan json.RawMessage) string {
	if len(plan) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, plan, "", "  "); err != nil {
		return string(plan)
	}
	return b.String()
}

// hostLines describes each ssh host of the run in one line.
func hostLines(hosts []results.RemoteHost) []string {
	var out []string
	for _, h := range hosts {
		out = append(out, format.HostLine(h))
	}
	return out
}
