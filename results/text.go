package results

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxMessage is how many bytes of a first error message the text report shows.
const maxMessage = 120

// WriteText writes a plain-text report of r for a terminal or a CI log: no
// colours, fixed-width columns. For every variant and repetition it shows
// the totals (window, requests, rate, errors by class, handshakes,
// negotiated parameters, status classes, client and server CPU, probe
// deltas, latency percentiles) and a per-group table with the total row
// and the spread between groups. A repetition with a client-bound group
// (Rep.ClientBound) gets a line starting "CLIENT-BOUND:", and one whose
// client CPUs other processes shared (Rep.OtherLoad) a line starting
// "OTHER LOAD:", both repeated among the warnings at the top. When the run has more than one variant or
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
func WriteText(w io.Writer, m *Report) error {
	if m.Err != nil {
		return fmt.Errorf("write text report: %w", m.Err)
	}
	r, s := m.Run, m.Summary
	var b bytes.Buffer
	writeHeader(&b, m)
	reps := 0
	for i := range r.Variants {
		writeVariant(&b, &r.Variants[i])
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
	if len(m.Thresholds) > 0 {
		writeThresholds(&b, m.Thresholds)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

// AllWarnings returns r.Warnings followed by the failed-repetition and
// client-bound warnings that Annotate would add, without changing r:
// what every rendering shows, whether or not Annotate ran.
func (r *Run) AllWarnings() []string { return warnings(r) }

// warnings returns r.Warnings followed by the failed and client-bound
// warnings that Annotate would add.
func warnings(r *Run) []string {
	s, err := SummarizeRun(r)
	if err != nil {
		s = nil
	}
	return warningsOf(r, s)
}

// warningsOf returns r.Warnings followed by the failed, client-bound,
// other-load and backoff warnings and those of r's summary s (nil: none).
func warningsOf(r *Run, s *RunSummary) []string {
	ws := appendNew(slices.Clone(r.Warnings), failedWarnings(r)...)
	ws = appendNew(ws, clientBoundWarnings(r)...)
	ws = appendNew(ws, otherLoadWarnings(r)...)
	ws = appendNew(ws, repWarnings(r, backoffLine)...)
	if s != nil {
		ws = appendNew(ws, s.Warnings...)
	}
	return ws
}

// notice is one line of a report's banner: a label in capitals
// ("WARNING") and its text.
type notice struct{ label, text string }

// notices lays out the banner of m once, in order: interrupted,
// incomplete, failed, not measured, crossed thresholds, warnings, hints.
// The text report writes each as "LABEL: text", the Markdown report as a
// quoted "**LABEL:** text".
func notices(m *Report) []notice {
	var ns []notice
	if m.Run.Interrupted {
		ns = append(ns, notice{"INTERRUPTED", "the run was stopped early and is INCOMPLETE: only completed repetitions are shown (kaeload run --resume DIR measures the rest)"})
	}
	if m.Run.Incomplete {
		ns = append(ns, notice{"INCOMPLETE", "rebuilt from the run's journal; only the repetitions finished so far are shown"})
	}
	if len(m.Failed) > 0 {
		ns = append(ns, notice{"FAILED", strings.Join(m.Failed, ", ") + " (see below); their figures are not results"})
	}
	for _, l := range m.NotMeasured {
		ns = append(ns, notice{"NOT MEASURED", l})
	}
	for _, c := range m.Crossed {
		ns = append(ns, notice{"THRESHOLD CROSSED", c})
	}
	for _, w := range m.Warnings {
		ns = append(ns, notice{"WARNING", w})
	}
	for _, h := range m.Hints {
		ns = append(ns, notice{"HINT", h})
	}
	return ns
}

// facts lays out the head of a report once, in order: started,
// finished (and how long it took), baseline, order and automatic
// repetitions, each with its label in lower case. The text report writes
// "label     text", the Markdown report "- **label** text".
func facts(m *Report) []notice {
	r, s := m.Run, m.Summary
	var fs []notice
	if !r.Started.IsZero() {
		fs = append(fs, notice{"started", r.Started.Format("2006-01-02 15:04:05 MST")})
	}
	if !r.Finished.IsZero() {
		f := r.Finished.Format("2006-01-02 15:04:05 MST")
		if !r.Started.IsZero() {
			f += fmt.Sprintf(" (took %s)", r.Finished.Sub(r.Started).Round(time.Second))
		}
		fs = append(fs, notice{"finished", f})
	}
	if len(r.Variants) > 0 || s.BaselineName != "" {
		fs = append(fs, notice{"baseline", s.BaselineLine()})
	}
	if o := orderLine(r); o != "" {
		fs = append(fs, notice{"order", o})
	}
	if c := r.Calibration; c != nil {
		fs = append(fs, notice{"repeat", "auto: " + calibrationWords(c)})
	}
	return fs
}

func writeHeader(b *bytes.Buffer, m *Report) {
	r := m.Run
	fmt.Fprintf(b, "run %s\n", r.Name)
	for _, f := range facts(m) {
		// A run without variants shows its times, then says so.
		if len(r.Variants) > 0 || f.label == "started" || f.label == "finished" {
			fmt.Fprintf(b, "%-9s %s\n", f.label, f.text)
		}
	}
	if len(r.Variants) == 0 {
		b.WriteString("no variants\n")
	}
	for _, n := range notices(m) {
		fmt.Fprintf(b, "%s: %s\n", n.label, n.text)
	}
	writeHosts(b, r.Hosts)
}

func writeVariant(b *bytes.Buffer, v *Variant) {
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
	if len(v.Reps) == 0 {
		b.WriteString("no completed repetitions\n")
	}
	for i := range v.Reps {
		writeRep(b, v.Name, &v.Reps[i])
	}
}

func writeRep(b *bytes.Buffer, variant string, rep *Rep) {
	t := &rep.Total
	if st := rep.Step; st != nil {
		fmt.Fprintf(b, "\n-- %s, capacity step %d (%s, %s/s asked)\n", variant, rep.Index+1, st.Phase, FormatCount(uint64(st.Rate+0.5)))
	} else {
		fmt.Fprintf(b, "\n-- %s, repetition %d\n", variant, rep.Index+1)
	}
	if line := failedLine(rep); line != "" {
		b.WriteString(line + "\n")
	}
	if line := clientBoundLine(rep); line != "" {
		b.WriteString(line + "\n")
	}
	if line := otherLoadLine(rep); line != "" {
		b.WriteString(line + "\n")
	}
	if line := missedLine(rep); line != "" {
		b.WriteString(line + "\n")
	}
	if line := backoffLine(rep); line != "" {
		b.WriteString(line + "\n")
	}
	kv := table{right: []bool{false, false}}
	kv.add("window", fmt.Sprintf("%.3f s", t.Window.Length().Seconds()))
	if ok := t.Succeeded(); ok != t.Requests {
		kv.add("requests", fmt.Sprintf("%s  (%s succeeded, %s req/s%s)", FormatCount(t.Requests), FormatCount(ok), FormatRate(t.Rate()), clientCostNote(rep)))
	} else {
		kv.add("requests", fmt.Sprintf("%s  (%s req/s%s)", FormatCount(t.Requests), FormatRate(t.Rate()), clientCostNote(rep)))
	}
	if line := openLoopLine(t); line != "" {
		kv.add("open loop", line)
	}
	errs := FormatCount(t.Errors.Total())
	if t.Attempts() > 0 && t.Errors.Total() > 0 {
		errs += "  (" + FormatShare(t.ErrorShare()) + " of attempts)"
	}
	kv.add("errors", errs)
	for c := range t.Errors {
		ec := &t.Errors[c]
		if ec.Count == 0 {
			continue
		}
		kv.add("  "+ErrorClass(c).String(), fmt.Sprintf("%s  first: %s", FormatCount(ec.Count), message(ec.First)))
		if ErrorClass(c) == ErrPorts {
			kv.add("", PortsHint)
		}
	}
	if u := t.Outside.Unanswered; u.Total() > 0 {
		kv.add("unanswered", UnansweredLine(u)+" at the window's end")
	}
	kv.add("handshakes", fmt.Sprintf("%s  (resumed %s)", FormatCount(t.Handshakes), FormatCount(t.Resumed)))
	kv.add("connections", FormatCount(t.Connections))
	kv.add("status", StatusLine(&t.Counts))
	if c := repClientCPU(rep); c.Measured > 0 {
		kv.add("client cpu", clientCPULine(c, t.Requests))
	}
	if rep.ServerCPU != nil {
		kv.add("server cpu", serverCPULine(rep.ServerCPU, t.Requests))
	}
	if m, ok := rep.SlotMemory(); ok {
		kv.add("client memory", m.Line())
	} else if t.PeakRSS > 0 {
		// A run recorded before workers measured their private memory:
		// peak RSS counts the shared binary once per worker, so it says
		// nothing per slot.
		kv.add("client memory", fmt.Sprintf("%s MiB peak RSS summed over the workers", FormatRate(float64(t.PeakRSS)/(1<<20))))
	}
	if rep.TimeWait != nil {
		kv.add("time_wait", FormatCount(uint64(max(*rep.TimeWait, 0)))+" sockets on the client machine after the window (the server's too, when it runs here)")
	}
	for _, name := range slices.Sorted(maps.Keys(rep.Probes)) {
		kv.add("probe "+name, probeLine(rep.Probes[name], t.Requests))
	}
	if o := t.Outside; o != (Outside{}) {
		kv.add("not counted", fmt.Sprintf("warm-up %s (errors %s), after the window %s (cut off %s)",
			FormatCount(o.Warmup), FormatCount(o.WarmupErrors), FormatCount(o.Late), FormatCount(o.Abandoned)))
	}
	if len(t.Negotiated) == 0 {
		kv.add("negotiated", "none")
	}
	kv.write(b, "")
	if len(t.Negotiated) > 0 {
		b.WriteString("negotiated\n")
		nt := table{right: []bool{false, true}}
		for _, n := range sortedNegotiated(t.Negotiated) {
			nt.add(n.key, FormatCount(n.count))
		}
		nt.write(b, "  ")
	}

	b.WriteByte('\n')
	lt := table{header: []string{"latency ms", "p50", "p90", "p99", "p99.9", "max"}, right: []bool{false, true, true, true, true, true}}
	for _, h := range []struct {
		name string
		h    *Histogram
	}{{"connect", t.Latency.Connect}, {"handshake", t.Latency.Handshake}, {"ttfb", t.Latency.TTFB}, {"total", t.Latency.Total}} {
		lt.add(h.name, QuantileMillis(h.h, 50), QuantileMillis(h.h, 90), QuantileMillis(h.h, 99), QuantileMillis(h.h, 99.9), MaxMillis(h.h))
	}
	if h := t.Latency.Intended; h != nil && h.Histogram != nil {
		lt.add("from intended", QuantileMillis(h, 50), QuantileMillis(h, 90), QuantileMillis(h, 99), QuantileMillis(h, 99.9), MaxMillis(h))
	}
	lt.write(b, "")

	b.WriteByte('\n')
	gt := table{
		header: []string{"group", "cpus", "threads", "conns", "requests", "req/s", "errors", "p99 total ms"},
		right:  []bool{false, false, true, true, true, true, true, true},
	}
	hosts := hasHosts(rep.Groups)
	if hosts {
		gt.header = append([]string{"group", "host"}, gt.header[1:]...)
		gt.right = append([]bool{false, false}, gt.right[1:]...)
	}
	busy := repClientCPU(rep).Measured > 0
	if busy {
		gt.header = append(gt.header, "cpu busy")
		gt.right = append(gt.right, true)
	}
	groupRow := func(name string, g *Group) {
		cpus := g.CPUs
		if cpus == "" {
			cpus = "-"
		}
		if g.Index == TotalIndex {
			cpus = ""
		}
		row := []string{name, cpus, strconv.Itoa(g.Threads), strconv.Itoa(g.Slots), FormatCount(g.Requests),
			FormatRate(g.Rate()), FormatCount(g.Errors.Total()), QuantileMillis(g.Latency.Total, 99)}
		if hosts {
			host := g.Host
			if host == "" && g.Index != TotalIndex {
				host = "local"
			}
			row = append([]string{row[0], host}, row[1:]...)
		}
		if busy {
			switch {
			case g.Index == TotalIndex:
				row = append(row, "")
			case g.CPU == nil:
				row = append(row, "-")
			default:
				row = append(row, FormatPercent(g.CPU.Busy))
			}
		}
		gt.add(row...)
	}
	for i := range rep.Groups {
		groupRow(strconv.Itoa(rep.Groups[i].Index), &rep.Groups[i])
	}
	groupRow("total", t)
	gt.write(b, "")
	if hosts {
		writeHostGroups(b, rep.Groups)
	}
	if len(rep.Groups) > 1 {
		s := GroupSpread(rep.Groups)
		fmt.Fprintf(b, "spread between groups: min %s req/s (group %d), max %s req/s (group %d): %.1f %% of the mean\n",
			FormatRate(s.Min), s.MinIndex, FormatRate(s.Max), s.MaxIndex, s.Pct)
	}
}

func writeComparison(b *bytes.Buffer, r *Run, s *RunSummary) {
	fmt.Fprintf(b, "\n== comparison: total req/s per repetition, baseline %q\n", s.BaselineName)
	if nc := s.NoComparison(); nc != "" {
		b.WriteString(nc + "\n")
	} else {
		b.WriteString(statsNote(s) + "\n")
	}
	ct := comparisonTable(s)
	ct.write(b, "")
	if dt, title, ok := driftTable(s); ok {
		fmt.Fprintf(b, "\n%s\n", title)
		dt.write(b, "")
	}
	if pt, ok := probeTable(s); ok {
		b.WriteString("\nprobe deltas per window (mean over repetitions; per request = delta / requests in the window)\n")
		pt.write(b, "")
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		fmt.Fprintf(b, "\n== %s\n%s\n", sweepTitle(sw), sweepLegend)
		st := sweepTable(s, sw)
		st.write(b, "")
		if l := plateauLine(s, sw); l != "" {
			b.WriteString(l + "\n")
		}
	}
}

// writeSearch writes what the run's search found and its visited values.
func writeSearch(b *bytes.Buffer, ss *SearchSummary) {
	fmt.Fprintf(b, "\n== search %s\n", ss.Search.Series)
	for _, l := range ss.Lines() {
		b.WriteString(l + "\n")
	}
	if len(ss.Points) == 0 {
		return
	}
	fmt.Fprintf(b, "visit order: %s\n", ss.VisitOrder())
	t := searchTable(ss)
	t.write(b, "")
}

// clientCPULine renders the client CPU use of a repetition that
// completed requests: kaeload's own time when recorded, and the busy time
// of the groups' CPUs (each CPU counted once).
func clientCPULine(c ClientCPU, requests uint64) string {
	line := fmt.Sprintf("%.2f s, busiest group %d at %s", c.Seconds, c.BusyMaxGroup, FormatPercent(c.BusyMax))
	if c.ProcessMeasured == c.Groups && c.Groups > 0 {
		line = fmt.Sprintf("kaeload %.2f s; its CPUs %s", c.Process, line)
	}
	if c.Measured < c.Groups {
		return line + fmt.Sprintf(" (%d of %d groups measured)", c.Measured, c.Groups)
	}
	if us, own, ok := c.PerRequest(requests); ok && us > 0 {
		line += fmt.Sprintf("  (%s req per client cpu-s", FormatRate(1e6/us))
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
func clientCostNote(rep *Rep) string {
	if us, _, ok := rep.ClientCPU().PerRequest(rep.Total.Requests); ok {
		return ", client " + FormatMicros(us) + " µs per request"
	}
	return ""
}

// serverCPULine renders the server CPU use of a repetition.
func serverCPULine(u *CPUUsage, requests uint64) string {
	line := fmt.Sprintf("%.2f s, %s busy", u.Seconds, FormatPercent(u.Busy))
	if u.CPUs != "" {
		line += " on CPUs " + u.CPUs
	}
	if u.Seconds > 0 {
		line += fmt.Sprintf("  (%s req per server cpu-s)", FormatRate(float64(requests)/u.Seconds))
	}
	return line
}

// probeLine renders one probe reading of a repetition.
func probeLine(p ProbeReading, requests uint64) string {
	if p.Error != "" {
		return "failed: " + message(p.Error)
	}
	line := fmt.Sprintf("delta %s (before %s, after %s)", FormatNumber(p.Delta()), FormatNumber(p.Before), FormatNumber(p.After))
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

// message quotes an error message, cut to maxMessage bytes.
func message(s string) string {
	if s == "" {
		return "(no message)"
	}
	if len(s) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// table lays out rows in columns two spaces apart, each column left- or
// right-aligned, without trailing spaces.
type table struct {
	header []string
	right  []bool
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(b *bytes.Buffer, indent string) {
	rows := t.rows
	if t.header != nil {
		rows = append([][]string{t.header}, rows...)
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
			if i < len(t.right) && t.right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

// calibrationWords says what repeat: auto measured and chose.
func calibrationWords(c *stats.Calibration) string {
	if !c.HasNoise {
		return fmt.Sprintf("no noise estimate from %d good calibration windows of %s: %d repetitions (the cap)", len(c.Rates), c.Variant, c.Repeat)
	}
	s := fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; %d repetitions per variant detect ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), c.Repeat, c.EffectPct, stats.Power*100)
	if c.Capped {
		s = fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; even the cap of %d repetitions cannot detect ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), c.Max, c.EffectPct, stats.Power*100)
	}
	return s
}
