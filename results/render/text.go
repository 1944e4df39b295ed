package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteText writes a plain-text report of r for a terminal or a CI log: no
// colours, fixed-width columns. For every variant and repetition it shows
// the totals (window, requests, rate, errors by class, handshakes,
// negotiated parameters, status classes, client and server CPU, probe
// deltas, latency percentiles) and a per-group table with the total row
// and the spread between groups. A repetition with a client-bound group
// (analysis.ClientBound) gets a line starting "CLIENT-BOUND:", and one whose
// client CPUs other processes shared (analysis.OtherLoad) a line starting
// "OTHER LOAD:", both repeated among the warnings at the top, as are the
// server-side lines (OTHER LOAD on the server, SHARED CPUS, NOT
// SATURATED) beside the rows "server's cpus" and "in flight" (Little's
// law beside the measured rate). When the run has more than one variant or
// repetition it ends with a comparison of every variant against the
// baseline (Run.BaselineIndex), the probe deltas per variant and, for
// every sweep, a table with an ASCII chart of req/s against the swept
// value. When any variant ran speed commands, a "crypto speed" section
// follows: every figure per variant and its Δ % against the baseline, and
// the speed commands that failed.
//
// A run whose baseline was not measured (interrupted before its first
// window, say) shows what was measured and says, in place of the
// comparison, that nothing is compared (RunSummary.NoComparison). It
// returns any error of w.
func WriteText(w io.Writer, m *analysis.Report) error {
	if m.Err != nil {
		return fmt.Errorf("write text report: %w", m.Err)
	}
	r, s := m.Run, m.Summary
	var b bytes.Buffer
	writeHeader(&b, m)
	reps := 0
	for i := range r.Variants {
		writeVariant(&b, &r.Variants[i], m.Reps[i])
		reps += len(r.Variants[i].Reps)
	}
	switch {
	case r.Capacity != nil:
		// Steps are windows at different rates: no repetition statistics.
		writeCapacity(&b, m)
	case len(r.Variants) > 1 || reps > 1:
		writeComparison(&b, r, s)
	}
	if m.Search != nil {
		writeSearch(&b, m.Search)
	}
	if m.Speed != nil {
		writeSpeed(&b, m.Speed)
	}
	if m.Profile != nil {
		writeProfile(&b, m.Profile)
	}
	if len(m.Thresholds) > 0 {
		writeThresholds(&b, m.Thresholds)
	}
	writeWrkRate(&b, m)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

// writeWrkRate ends the report of a run of one window (one variant, one
// repetition, as "kaeload run URL" makes) with wrk's "Requests/sec:" line,
// for scripts written for wrk's output (awk '/^Requests\/sec/ {print $2}').
// With more windows there is no one figure to give, so no such line.
func writeWrkRate(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	if r.Capacity != nil || len(r.Variants) != 1 || len(r.Variants[0].Reps) != 1 {
		return
	}
	fmt.Fprintf(b, "\nRequests/sec: %9.2f\n", r.Variants[0].Reps[0].Total.Rate())
}

func writeHeader(b *bytes.Buffer, m *analysis.Report) {
	r := m.Run
	fmt.Fprintf(b, "run %s\n", r.Name)
	for _, f := range tables.Facts(m) {
		// A run without variants shows its times, then says so.
		if len(r.Variants) > 0 || f.Label == "started" || f.Label == "finished" {
			fmt.Fprintf(b, "%-9s %s\n", f.Label, f.Text)
		}
	}
	if len(r.Variants) == 0 {
		b.WriteString("no variants\n")
	}
	for _, n := range tables.Notices(m) {
		fmt.Fprintf(b, "%s: %s\n", n.Label, n.Text)
	}
	writeHosts(b, r.Hosts)
}

func writeVariant(b *bytes.Buffer, v *results.Variant, ras []analysis.RepReport) {
	fmt.Fprintf(b, "\n== variant %s\n", v.Name)
	if len(v.Env) > 0 {
		keys := make([]string, 0, len(v.Env))
		for k := range v.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("env")
		for _, k := range keys {
			fmt.Fprintf(b, " %s=%s", k, v.Env[k])
		}
		b.WriteByte('\n')
	}
	for _, in := range v.Info {
		fmt.Fprintf(b, "server %s\n", in.Line())
	}
	if len(v.Reps) == 0 {
		b.WriteString("no completed repetitions")
		if len(v.Partial) > 0 {
			b.WriteString(" (a partial window: see PARTIAL above)")
		}
		b.WriteByte('\n')
	}
	for i := range v.Reps {
		writeRep(b, v.Name, &v.Reps[i], &ras[i])
	}
}

func writeRep(b *bytes.Buffer, variant string, rep *results.Rep, ra *analysis.RepReport) {
	t := &rep.Total
	if st := rep.Step; st != nil {
		fmt.Fprintf(b, "\n-- %s, capacity step %d (%s, %s/s asked)\n", variant, rep.Index+1, st.Phase, format.Count(uint64(st.Rate+0.5)))
	} else {
		fmt.Fprintf(b, "\n-- %s, repetition %d\n", variant, rep.Index+1)
	}
	for _, line := range (notes.List{ra.Failed, ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.Missed, ra.Backoff}).Strings() {
		if line != "" {
			b.WriteString(line + "\n")
		}
	}
	kv := tables.Table{Right: []bool{false, false}}
	kv.Add("window", fmt.Sprintf("%.3f s", t.Window.Length().Seconds()))
	if ok := t.Succeeded(); ok != t.Requests {
		kv.Add("requests", fmt.Sprintf("%s  (%s succeeded, %s req/s%s)", format.Count(t.Requests), format.Count(ok), format.Rate(t.Rate()), clientCostNote(ra, t.Requests)))
	} else {
		kv.Add("requests", fmt.Sprintf("%s  (%s req/s%s)", format.Count(t.Requests), format.Rate(t.Rate()), clientCostNote(ra, t.Requests)))
	}
	if line := ra.OpenLoop.String(); line != "" {
		kv.Add("open loop", line)
	}
	errs := format.Count(t.Errors.Total())
	if t.Attempts() > 0 && t.Errors.Total() > 0 {
		errs += "  (" + format.Share(t.ErrorShare()) + " of attempts)"
	}
	kv.Add("errors", errs)
	for c := range t.Errors {
		ec := &t.Errors[c]
		if ec.Count == 0 {
			continue
		}
		kv.Add("  "+results.ErrorClass(c).String(), fmt.Sprintf("%s  first: %s", format.Count(ec.Count), format.Message(ec.First)))
		if results.ErrorClass(c) == results.ErrPorts {
			kv.Add("", results.PortsHint)
		}
	}
	if ra.Unanswered != "" {
		kv.Add("unanswered", ra.Unanswered+" at the window's end")
	}
	kv.Add("handshakes", fmt.Sprintf("%s  (resumed %s)", format.Count(t.Handshakes), format.Count(t.Resumed)))
	kv.Add("connections", format.Count(t.Connections))
	kv.Add("status", format.StatusLine(&t.Counts))
	if c := ra.ClientCPU; c.Measured > 0 {
		kv.Add("client cpu", clientCPULine(c, t.Requests))
	}
	if rep.ServerCPU != nil {
		kv.Add("server cpu", serverCPULine(rep.ServerCPU, t.Requests))
	}
	if w := tables.ServerCPUsWords(ra.ServerCPUs); w != "" {
		kv.Add("server's cpus", w)
	}
	if w := tables.LittleWords(ra.Saturation); w != "" && ra.Saturation.Judged {
		kv.Add("in flight", w)
	}
	if m, ok := rep.SlotMemory(); ok {
		kv.Add("client memory", format.SlotMemoryLine(m))
	} else if t.PeakRSS > 0 {
		// A run recorded before workers measured their private memory:
		// peak RSS counts the shared binary once per worker, so it says
		// nothing per slot.
		kv.Add("client memory", fmt.Sprintf("%s MiB peak RSS summed over the workers", format.Rate(float64(t.PeakRSS)/(1<<20))))
	}
	if rep.TimeWait != nil {
		tw := format.Count(uint64(max(*rep.TimeWait, 0))) + " sockets on the client machine after the window (the server's too, when it runs here)"
		if n := rep.TimeWaitTarget; n != nil {
			tw += "; " + format.Count(uint64(max(*n, 0))) + " of them the client's, to the target"
		}
		kv.Add("time_wait", tw)
	}
	for _, name := range slices.Sorted(maps.Keys(rep.Probes)) {
		kv.Add("probe "+name, probeLine(rep.Probes[name], t.Requests))
	}
	if o := t.Outside; o != (results.Outside{}) {
		kv.Add("not counted", format.OutsideLine(&o))
	}
	if len(t.Negotiated) == 0 {
		kv.Add("negotiated", "none")
	}
	for _, n := range tables.RepTimeline(&ra.Timeline) {
		kv.Add(n.Label, n.Text)
	}
	writeTable(&kv, b, "")
	if len(t.Negotiated) > 0 {
		b.WriteString("negotiated\n")
		nt := tables.Table{Right: []bool{false, true}}
		for _, n := range sortedNegotiated(t.Negotiated) {
			nt.Add(n.key, format.Count(n.count))
		}
		writeTable(&nt, b, "  ")
	}
	for i := range ra.Timeline.Diagnoses {
		d := &ra.Timeline.Diagnoses[i]
		fmt.Fprintf(b, "DIAGNOSIS %s\n", d.Title)
		dt := tables.Table{Right: []bool{false, false}}
		for _, n := range tables.DiagnosisRows(d) {
			dt.Add(n.Label, n.Text)
		}
		writeTable(&dt, b, "  ")
	}

	b.WriteByte('\n')
	lt := tables.Table{Header: []string{"latency ms", "p50", "p90", "p99", "p99.9", "max"}, Right: []bool{false, true, true, true, true, true}}
	for _, h := range []struct {
		name string
		h    *results.Histogram
	}{{"connect", t.Latency.Connect}, {"handshake", t.Latency.Handshake}, {"ttfb", t.Latency.TTFB}, {"total", t.Latency.Total}} {
		lt.Add(h.name, format.QuantileMillis(h.h, 50), format.QuantileMillis(h.h, 90), format.QuantileMillis(h.h, 99), format.QuantileMillis(h.h, 99.9), format.MaxMillis(h.h))
	}
	if h := t.Latency.Intended; h != nil && h.Histogram != nil {
		lt.Add("from intended", format.QuantileMillis(h, 50), format.QuantileMillis(h, 90), format.QuantileMillis(h, 99), format.QuantileMillis(h, 99.9), format.MaxMillis(h))
	}
	writeTable(&lt, b, "")

	b.WriteByte('\n')
	gt := tables.Table{
		Header: []string{"group", "cpus", "threads", "conns", "requests", "req/s", "errors", "p99 total ms"},
		Right:  []bool{false, false, true, true, true, true, true, true},
	}
	hosts := hasHosts(rep.Groups)
	if hosts {
		gt.Header = append([]string{"group", "host"}, gt.Header[1:]...)
		gt.Right = append([]bool{false, false}, gt.Right[1:]...)
	}
	busy := ra.ClientCPU.Measured > 0
	if busy {
		gt.Header = append(gt.Header, "cpu busy")
		gt.Right = append(gt.Right, true)
	}
	groupRow := func(name string, g *results.Group) {
		cpus := g.CPUs
		if cpus == "" {
			cpus = "-"
		}
		if g.Index == results.TotalIndex {
			cpus = ""
		}
		row := []string{name, cpus, strconv.Itoa(g.Threads), strconv.Itoa(g.Slots), format.Count(g.Requests),
			format.Rate(g.Rate()), format.Count(g.Errors.Total()), format.QuantileMillis(g.Latency.Total, 99)}
		if hosts {
			host := g.Host
			if host == "" && g.Index != results.TotalIndex {
				host = "local"
			}
			row = append([]string{row[0], host}, row[1:]...)
		}
		if busy {
			switch {
			case g.Index == results.TotalIndex:
				row = append(row, "")
			case g.CPU == nil:
				row = append(row, "-")
			default:
				row = append(row, format.Percent(g.CPU.Busy))
			}
		}
		gt.Add(row...)
	}
	for i := range rep.Groups {
		groupRow(strconv.Itoa(rep.Groups[i].Index), &rep.Groups[i])
	}
	groupRow("total", t)
	writeTable(&gt, b, "")
	if hosts {
		writeHostGroups(b, rep.Groups)
	}
	if s := ra.Spread; s != nil {
		fmt.Fprintf(b, "spread between groups: min %s req/s (group %d), max %s req/s (group %d): %.1f %% of the mean\n",
			format.Rate(s.Min), s.MinIndex, format.Rate(s.Max), s.MaxIndex, s.Pct)
	}
}

func writeComparison(b *bytes.Buffer, r *results.Run, s *analysis.RunSummary) {
	fmt.Fprintf(b, "\n== comparison: total req/s per repetition, baseline %q\n", s.BaselineName)
	if nc := s.NoComparison(); nc != "" {
		b.WriteString(nc + "\n")
	} else {
		b.WriteString(tables.StatsNote(s) + "\n")
	}
	ct := tables.Comparison(s)
	writeTable(&ct, b, "")
	if dt, title, ok := tables.Drift(s); ok {
		fmt.Fprintf(b, "\n%s\n", title)
		writeTable(&dt, b, "")
	}
	if pt, ok := tables.Probes(s); ok {
		b.WriteString("\nprobe deltas per window (mean over repetitions; per request = delta / requests in the window)\n")
		writeTable(&pt, b, "")
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		fmt.Fprintf(b, "\n== %s\n%s\n", tables.SweepTitle(sw), tables.SweepLegend)
		st := tables.Sweep(s, sw)
		writeTable(&st, b, "")
		if l := tables.PlateauLine(s, sw); l != "" {
			b.WriteString(l + "\n")
		}
	}
}

// writeSearch writes what the run's search found and its visited values.
func writeSearch(b *bytes.Buffer, ss *analysis.SearchSummary) {
	fmt.Fprintf(b, "\n== search %s\n", ss.Search.Series)
	for _, l := range ss.Lines() {
		b.WriteString(l + "\n")
	}
	if len(ss.Points) == 0 {
		return
	}
	fmt.Fprintf(b, "visit order: %s\n", ss.VisitOrder())
	t := tables.Search(ss)
	writeTable(&t, b, "")
}

// clientCPULine renders the client CPU use of a repetition that
// completed requests: kaeload's own time when recorded, and the busy time
// of the groups' CPUs (each CPU counted once).
func clientCPULine(c analysis.ClientCPU, requests uint64) string {
	line := fmt.Sprintf("%.2f s, busiest group %d at %s", c.Seconds, c.BusyMaxGroup, format.Percent(c.BusyMax))
	if c.ProcessMeasured == c.Groups && c.Groups > 0 {
		line = fmt.Sprintf("kaeload %.2f s; its CPUs %s", c.Process, line)
	}
	if c.Measured < c.Groups {
		return line + fmt.Sprintf(" (%d of %d groups measured)", c.Measured, c.Groups)
	}
	if us, own, ok := c.PerRequest(requests); ok && us > 0 {
		line += fmt.Sprintf("  (%s req per client cpu-s", format.Rate(1e6/us))
		if own {
			line += ", kaeload's own"
		}
		line += ")"
	}
	return line
}

// clientCostNote is ", client N µs per request" for a repetition whose
// client CPU was measured, "" otherwise: the generator's cost beside the
// server's rate.
func clientCostNote(ra *analysis.RepReport, requests uint64) string {
	if us, _, ok := ra.ClientCPU.PerRequest(requests); ok {
		return ", client " + format.Micros(us) + " µs per request"
	}
	return ""
}

// serverCPULine renders the server CPU use of a repetition.
func serverCPULine(u *results.CPUUsage, requests uint64) string {
	line := fmt.Sprintf("%.2f s, %s busy", u.Seconds, format.Percent(u.Busy))
	if u.CPUs != "" {
		line += " on CPUs " + u.CPUs
	}
	if u.Seconds > 0 {
		line += fmt.Sprintf("  (%s req per server cpu-s)", format.Rate(float64(requests)/u.Seconds))
	}
	return line
}

// probeLine renders one probe reading of a repetition.
func probeLine(p results.ProbeReading, requests uint64) string {
	if p.Error != "" {
		return "failed: " + format.Plain(p.Error) // as it was: a pattern's backslashes not doubled
	}
	line := fmt.Sprintf("delta %s (before %s, after %s)", format.Number(p.Delta()), format.Number(p.Before), format.Number(p.After))
	if requests > 0 {
		line += fmt.Sprintf(", %.3f per request", p.Delta()/float64(requests))
	}
	return line
}

type negotiated struct {
	key   string
	count uint64
}

// sortedNegotiated returns the negotiated parameter sets, most frequent first.
func sortedNegotiated(m map[string]uint64) []negotiated {
	ns := make([]negotiated, 0, len(m))
	for k, v := range m {
		ns = append(ns, negotiated{k, v})
	}
	sort.Slice(ns, func(i, j int) bool {
		if ns[i].count != ns[j].count {
			return ns[i].count > ns[j].count
		}
		return ns[i].key < ns[j].key
	})
	return ns
}

func writeTable(t *tables.Table, b *bytes.Buffer, indent string) {
	rows := t.Rows
	if t.Header != nil {
		rows = append([][]string{t.Header}, rows...)
	}
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var line strings.Builder
	for _, row := range rows {
		line.Reset()
		line.WriteString(indent)
		for i, c := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i < len(t.Right) && t.Right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}
