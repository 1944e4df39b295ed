package htmlreport

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
)

// addTables lays out the tables of every variant in vs and of its
// repetitions, the catalogue's HTML measures after their own columns.
func (pg *page) addTables(m *analysis.Report, vs []variantData, base *variantData) {
	vcols := slices.DeleteFunc(measure.Columns(m, measure.HTML), func(c measure.Column) bool { return c.Variant == nil })
	rcols := slices.DeleteFunc(measure.Columns(m, measure.HTML), func(c measure.Column) bool { return c.Rep == nil })
	pg.Comparison = table{ID: "comparison-table", Head: [][]th{append(head("variant", "#n", "#mean req/s", "#client<br/>µs/req", "#± stddev", "#95 % CI",
		"\n#Δ vs<br/>baseline", "#p", "#p Holm", "#MDE", "verdict", "#p99<br/>handshake ms", "\n#errors", "#req/server<br/>cpu-s"), measureHeads(vcols)...)}}
	pg.Variants = table{Head: [][]th{head("variant", "series", "swept", "server environment", "#repetitions")}}
	pg.Reps = table{ID: "reps-table", Head: [][]th{append(head("variant", "#rep", "#window", "#requests", "#req/s", "#client µs/req", "#errors",
		"\n#handshakes", "#resumed", "#connections", "status", "#p99 total ms"), measureHeads(rcols)...)}}
	pg.Latency = table{Head: [][]th{head("variant", "timing", "#count", "#p50", "#p90", "#p99", "#p99.9", "#max")}}
	pg.Groups = table{Head: [][]th{head("variant", "#group", "CPUs", "#threads", "#connections",
		"\n#mean req/s", "#range over reps", "#CPU busy: mean (max)")}}
	notCounted := &table{ID: "not-counted-table", Head: [][]th{
		{{HTML: "variant", RowSpan: 2}, {HTML: "rep", Class: "num", RowSpan: 2}, {HTML: "warm-up", Class: "group", Cols: 2},
			{HTML: "in flight at the window's end", Class: "group", Cols: 6}, {HTML: "TIME_WAIT sockets after", Class: "num", RowSpan: 2, NL: true}},
		head("#responses", "#errors", "#completed after", "#errors after", "#failed or cut off", "\n#in connect", "#in handshake", "#awaiting response")}}
	openLoop := &table{ID: "open-loop-table", Head: [][]th{head("variant", "#starts due", "#missed", "#p50 from intended", "#p99 from intended", "#p99.9 from intended")}}
	serverCost := &table{ID: "server-cost", Head: [][]th{head("variant", "#reps with server CPU", "#server CPU time", "#req/server cpu-s",
		"95 % CI (per repetition)", "Δ req/server cpu-s")}}
	cpu := &table{Head: [][]th{head("variant", "#rep", "#client busiest group", "#group", "\n#client mean", "#server busy", "#server CPU time")}}
	errs := &table{Head: [][]th{head("variant", "#rep", "class", "#count", "first message")}}
	negotiated := &table{Head: [][]th{head("variant", "version, cipher, group", "#handshakes", "#share")}}
	probes := &table{Head: [][]th{head("variant", "#rep", "probe", "#before", "#after", "#delta", "error")}}
	colsV, colsR := 13+len(vcols), 12+len(rcols)
	for i := range vs {
		v := &vs[i]
		x := measure.NewVariant(m, v.Index)
		pg.addComparison(v, base, measureCells(vcols, func(c measure.Column) measure.Value { return c.OfVariant(x) }), colsV)
		pg.Variants.add("", td{Class: "name", Swatch: cssColor(v.Color), Text: v.V.Name}, txt(v.V.Series), txt(keyValues(v.V.Sweep)),
			msg(keyValues(v.V.Env)), right(strconv.Itoa(len(v.V.Reps))))
		for _, in := range v.V.Info {
			pg.Variants.add("", td{}, td{Text: "server " + in.Line(), Class: "msg", Span: 4})
		}
		addLatency(&pg.Latency, v)
		if s := v.Sum; s.Scheduled > 0 {
			q := func(q float64) td { return right(cell(format.QuantileMillis(s.Intended, q))) }
			openLoop.add("", td{Text: v.V.Name, Class: "name"}, right(format.Count(s.Scheduled)), right(format.Count(s.Missed)), q(50), q(99), q(99.9))
		}
		if x, ok := v.Sum.RequestsPerServerCPU(); ok {
			serverCost.add("", txt(v.V.Name), right(strconv.Itoa(v.Sum.ServerCPUReps)), right(fmt.Sprintf("%.2f s", v.Sum.ServerCPUSeconds)),
				right(format.Rate(x)), txt(measure.CICell(v.Sum.ServerCPUStats)), txt(measure.ServerCPUDeltaCell(v.Sum)))
		}
		addGroups(&pg.Groups, v)
		addNegotiated(negotiated, v)
		for j := range v.V.Reps {
			rep, ra := &v.V.Reps[j], &v.Reps[j]
			x := measure.NewRep(m, v.Index, j)
			pg.addRep(v.V.Name, rep, ra, measureCells(rcols, func(c measure.Column) measure.Value { return c.OfRep(x) }), colsR)
			addNotCounted(notCounted, v.V.Name, rep)
			addErrors(errs, v.V.Name, rep)
			addProbes(probes, v.V.Name, rep)
			if c := cpuOf(rep, ra); c.measured() {
				addCPU(cpu, v.V.Name, rep, c, ra)
			}
		}
	}
	if len(pg.Reps.Rows) == 0 {
		pg.Reps.add("", td{Text: "no completed repetitions", Span: colsR})
	}
	pg.NotCounted, pg.OpenLoop, pg.ServerCost, pg.CPU = ifRows(notCounted), ifRows(openLoop), ifRows(serverCost), ifRows(cpu)
	pg.Errors, pg.Negotiated, pg.Probes = ifRows(errs), ifRows(negotiated), ifRows(probes)
}

// ifRows is t, nil without rows: the page then leaves it out.
func ifRows(t *table) *table {
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// measureHeads are the catalogue columns' headers.
func measureHeads(cols []measure.Column) []th {
	var out []th
	for _, c := range cols {
		out = append(out, th{Text: c.Label, Class: "num"})
	}
	return out
}

// measureCells are the catalogue columns' cells, value reading each.
func measureCells(cols []measure.Column, value func(measure.Column) measure.Value) []td {
	var out []td
	for _, c := range cols {
		out = append(out, right(c.Text(value(c))))
	}
	return out
}

// addComparison adds v's row of the comparison table, with the text
// report's figures, and its notes' row; base is the baseline.
func (pg *page) addComparison(v, base *variantData, measures []td, cols int) {
	s, c := v.Sum.Stats, v.Sum.Comparison
	name := td{Class: "name", Swatch: cssColor(v.Color), Text: v.V.Name}
	if n := v.Sum.FailedReps; n > 0 {
		name.Flag = "FAILED"
		if s.N > 1 {
			name.Flag = fmt.Sprintf("FAILED (%d of %d reps)", n, s.N)
		}
	}
	mean, stddev, ci, clientUs, perServer := dash, dash, dash, dash, dash
	if s.N > 0 {
		mean = format.Rate(s.Mean)
	}
	if s.N > 1 {
		stddev = format.Rate(s.StdDev)
	}
	if s.HasCI {
		ci = format.Rate(s.CI95Low) + " – " + format.Rate(s.CI95High)
	}
	if us, ok := v.Sum.ClientMicrosPerRequest(); ok {
		clientUs = format.Micros(us)
	}
	if x, ok := v.Sum.RequestsPerServerCPU(); ok {
		perServer = format.Rate(x)
	}
	delta, p, pAdj, mde, verdict := "baseline", dash, dash, dash, td{Text: "baseline", Class: "verdict sig-no"}
	if !v.Sum.IsBaseline {
		delta, p, pAdj, mde = dash, cell(format.PValue(c)), cell(format.PAdjusted(c)), cell(measure.MDECell(v.Sum))
		verdict.Text = format.VerdictLine(c, v.Sum.VerdictCaveat.String())
		if c.Significant {
			verdict.Class = "verdict sig-yes"
		}
		if hasDelta(v, base) {
			delta = format.Delta(c.DeltaPct)
		}
	}
	class := ""
	if v.Sum.IsBaseline {
		class = "base"
	}
	pg.Comparison.add(class, append([]td{name, right(strconv.Itoa(s.N)),
		right(mean).nl(), right(clientUs), right(stddev), {Text: ci, Class: "num ci"}, right(delta),
		right(p).nl(), right(pAdj), right(mde), verdict, right(cell(format.QuantileMillis(v.Sum.Handshake, 99))),
		right(format.Count(v.Sum.Errors)).nl(), right(perServer)}, measures...)...)
	if n := measure.NotesCell(v.Sum); n != "" {
		pg.Comparison.add(strings.TrimSpace("notes "+class), td{}, td{Text: "notes: " + n, Class: "msg", Span: cols})
	}
}

// hasDelta reports whether v's difference from the baseline base is
// defined: both have a completed repetition (base may be nil: none).
func hasDelta(v, base *variantData) bool {
	return base != nil && v.Sum.Stats.N > 0 && base.Sum.Stats.N > 0
}

// keyValues renders a map as "k=v k=v" in key order.
func keyValues(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, " ")
}

// addRep adds rep's row of the repetitions table, then its failure and
// its loud lines (RepReport) on rows of their own.
func (pg *page) addRep(variant string, rep *results.Rep, ra *analysis.RepReport, measures []td, cols int) {
	t := &rep.Total
	clientUs := dash
	if us, _, ok := ra.ClientCPU.PerRequest(t.Requests); ok {
		clientUs = format.Micros(us)
	}
	failed := notes.Failure(rep.Failed).String()
	class := ""
	if failed != "" {
		class = "hot"
	} else if ra.Flagged() {
		class = "flagged"
	}
	pg.Reps.add(class, append([]td{{Text: variant, Class: "name"}, right(strconv.Itoa(rep.Index + 1)),
		right(strconv.FormatFloat(t.Window.Length().Seconds(), 'f', 3, 64) + " s"), right(format.Count(t.Requests)), right(format.Rate(t.Rate())), right(clientUs),
		right(format.Count(t.Errors.Total())).nl(), right(format.Count(t.Handshakes)), right(format.Count(t.Resumed)), right(format.Count(t.Connections)),
		txt(format.StatusLine(&t.Counts)).nl(), right(cell(format.QuantileMillis(t.Latency.Total, 99)))}, measures...)...)
	if failed != "" {
		pg.Reps.add("hot", td{Lead: "FAILED:", Text: failed, Span: cols})
	}
	for _, l := range (notes.List{ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.OpenLoop, ra.Missed, ra.Backoff}).Strings() {
		if l != "" {
			pg.Reps.add("", td{Text: l, Class: "msg", Span: cols})
		}
	}
}

// withClasses is a count of errors with its classes: "1,400 (status 1,400)".
func withClasses(n uint64, classes results.ErrorCounts) string {
	if c := format.ErrorClasses(classes); c != "" && n > 0 {
		return format.Count(n) + " (" + c + ")"
	}
	return format.Count(n)
}

// addNotCounted adds what rep counted outside its window (results.Outside)
// and its TIME_WAIT sockets after it, when it has any of them.
func addNotCounted(t *table, variant string, rep *results.Rep) {
	o := rep.Total.Outside
	if o == (results.Outside{}) && rep.TimeWait == nil {
		return
	}
	tw := dash
	if rep.TimeWait != nil {
		tw = format.Count(uint64(max(*rep.TimeWait, 0)))
	}
	f := func(n uint64) td { return right(format.Count(n)) }
	t.add("", td{Text: variant, Class: "name"}, right(strconv.Itoa(rep.Index+1)), f(o.Warmup), right(withClasses(o.WarmupErrorTotal(), o.WarmupClasses)),
		f(o.Late), right(withClasses(o.AfterClasses.Total(), o.AfterClasses)), f(o.Abandoned),
		f(o.Unanswered.Connect).nl(), f(o.Unanswered.Handshake), f(o.Unanswered.Response), right(tw))
}

// addLatency adds v's latencies, merged over its repetitions.
func addLatency(t *table, v *variantData) {
	if len(v.V.Reps) == 0 {
		return
	}
	for _, m := range []struct {
		name string
		h    *results.Histogram
	}{{"connect", v.Sum.Connect}, {"handshake", v.Sum.Handshake}, {"ttfb", v.Sum.TTFB}, {"total", v.Sum.Total}} {
		q := func(q float64) td { return right(cell(format.QuantileMillis(m.h, q))) }
		t.add("", txt(v.V.Name), txt(m.name), right(format.Count(uint64(m.h.TotalCount()))), q(50), q(90),
			q(99).nl(), q(99.9), right(cell(format.MaxMillis(m.h))))
	}
}

// addGroups adds v's groups, aggregated over its repetitions; a group
// whose CPUs were ever client-bound busy is highlighted.
func addGroups(t *table, v *variantData) {
	for _, g := range groups(v.V) {
		cpus := g.CPUs
		if cpus == "" {
			cpus = "unpinned"
		}
		rateRange, busy := "", cell(format.Percent(mean(g.Busy)))
		if len(g.Rates) > 1 {
			rateRange = format.Rate(slices.Min(g.Rates)) + " – " + format.Rate(slices.Max(g.Rates))
		}
		if len(g.Busy) > 1 {
			busy += " (max " + format.Percent(slices.Max(g.Busy)) + ")"
		}
		class := ""
		if len(g.Busy) > 0 && slices.Max(g.Busy) >= results.ClientBoundBusy {
			class = "hot"
		}
		t.add(class, txt(v.V.Name), right(strconv.Itoa(g.Index)), txt(cpus), right(strconv.Itoa(g.Threads)),
			right(strconv.Itoa(g.Slots)).nl(), right(cell(format.Rate(mean(g.Rates)))), right(rateRange), right(busy))
	}
}

// addCPU adds rep's CPU figures c; the row is hot on the analysis's
// verdict (ra), never on the busy time alone.
func addCPU(t *table, variant string, rep *results.Rep, c repCPU, ra *analysis.RepReport) {
	busiest, seconds := dash, dash
	if c.Busiest >= 0 {
		busiest = strconv.Itoa(c.Busiest)
	}
	if !math.IsNaN(c.ServerSeconds) {
		seconds = strconv.FormatFloat(c.ServerSeconds, 'f', 2, 64) + " s"
	}
	class := ""
	if len(ra.ClientBoundGroups) > 0 {
		class = "hot"
	}
	t.add(class, txt(variant), right(strconv.Itoa(rep.Index+1)), right(cell(format.Percent(c.ClientMax))), right(busiest),
		right(cell(format.Percent(c.ClientMean))).nl(), right(cell(format.Percent(c.Server))), right(seconds))
}

func addErrors(t *table, variant string, rep *results.Rep) {
	for c, ec := range rep.Total.Errors {
		if ec.Count == 0 {
			continue
		}
		first := ec.First
		if first == "" {
			first = "(no message)"
		}
		t.add("", txt(variant), right(strconv.Itoa(rep.Index+1)), txt(results.ErrorClass(c).String()), right(format.Count(ec.Count)), msg(first))
	}
}

// addNegotiated adds v's negotiated parameters over its repetitions, the
// most frequent first.
func addNegotiated(t *table, v *variantData) {
	sum := map[string]uint64{}
	var total uint64
	for i := range v.V.Reps {
		for k, n := range v.V.Reps[i].Total.Negotiated {
			sum[k] += n
			total += n
		}
	}
	keys := slices.Sorted(maps.Keys(sum))
	sort.SliceStable(keys, func(i, j int) bool { return sum[keys[i]] > sum[keys[j]] })
	for _, k := range keys {
		t.add("", txt(v.V.Name), txt(k), right(format.Count(sum[k])), right(cell(format.Percent(float64(sum[k])/float64(total)))))
	}
}

func addProbes(t *table, variant string, rep *results.Rep) {
	for _, k := range slices.Sorted(maps.Keys(rep.Probes)) {
		p := rep.Probes[k]
		t.add("", txt(variant), right(strconv.Itoa(rep.Index+1)), txt(k),
			right(cell(format.Float(p.Before, 2))), right(cell(format.Float(p.After, 2))), right(cell(format.Float(p.Delta(), 2))), msg(p.Error))
	}
}
