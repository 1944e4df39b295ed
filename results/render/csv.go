package render

import (
	"encoding/csv"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// WriteCSV writes r as summary.csv: a header row, then for every variant
// one row per repetition followed by one statistics row whose rep column
// is "all". Numbers are plain (no thousands separators, '.' decimal
// point); a cell is empty when the value was not measured or does not
// apply to the row. The columns are:
//
//   - variant, series; then sweep.KEY for every swept key in the run
//     (sorted), the variant's value or empty;
//   - rep: the 1-based repetition number, or "all";
//   - window_s, requests, req_per_s (the repetition's total rate; empty
//     in "all" rows, whose mean is mean_req_per_s), errors, and
//     errors_CLASS for every ErrorClass, resumed (requests, errors and
//     resumed are sums in "all" rows);
//   - handshake_p50_ms, handshake_p99_ms, total_p50_ms, total_p99_ms (of
//     the repetitions' histograms merged exactly in "all" rows);
//   - scheduled and missed (open-loop starts due in the window and
//     missed: Counts.Scheduled, Counts.Missed; sums in "all" rows),
//     intended_p50_ms and intended_p99_ms (latency from the intended
//     start, Latency.Intended); all four empty in a closed loop;
//   - client_busy_max (0..1, the busiest group), client_cpu_s and
//     req_per_client_cpu_s (the busy time of the groups' CPUs, each CPU
//     counted once, only when every group was measured; empty in "all"
//     rows), client_us_per_request (the client's CPU µs per request:
//     kaeload's own process time when recorded, else the CPUs' busy time;
//     pooled over the repetitions in "all" rows), server_cpu_s and req_per_server_cpu_s (in "all" rows
//     the sum and the ratio over the repetitions measured), client_bound (true/false; in "all" rows
//     true when any repetition was), failed (a repetition's failure; in
//     "all" rows "K of N reps" and, for a variant the run gave up on,
//     "not measured: REASON" — such a variant without any repetition has
//     its "all" row alone, every other cell empty);
//   - rate_min, rate_median, rate_max (req/s over the window's
//     intervals), stalls (how many; empty when the window could not be
//     judged), stall_seconds ("3.0-5.0;…", from the window's start),
//     listen_overflows (the server's ListenOverflows over the window;
//     empty when not available) and diagnoses (the rules that found
//     something, ";"-separated, "no timeline" for a repetition stored
//     before timelines): the repetition's timeline (RepReport.Timeline);
//     empty in "all" rows;
//   - server_cpus, server_cpus_busy, server_cpus_other_share,
//     server_cpus_busiest, server_other_load, shared_cpus, not_saturated
//     and little_req_per_s: the server's CPUs and whether it was loaded
//     (serverCPUsCells; in "all" rows serverCPUsAllCells);
//   - probe.NAME.delta and probe.NAME.per_request for every probe name in
//     the run (sorted); empty when the reading failed; the mean delta and
//     the pooled per-request figure (ProbeSummary) in "all" rows;
//   - mean_req_per_s, stddev, ci95_low, ci95_high, delta_pct, p_value,
//     significant, test: the variant's Stats and Comparison, in "all" rows
//     only. The baseline's test cell is "baseline"; ci95 cells are empty
//     for fewer than two repetitions and p_value when no test ran;
//   - p_adjusted, adjustment ("holm" or "none"), family (the comparisons
//     adjusted together), mde_pct, equivalence_bound_pct,
//     equivalence_margin_pct and equivalent (Comparison), in "all" rows of
//     the variants compared with the baseline whose test ran; plateau
//     (true/false, VariantSummary.Plateau) in "all" rows of swept variants;
//   - thresholds, only in a run with thresholds: in "all" rows "pass" or
//     "crossed: EXPR; EXPR" (CheckThresholds; a vs threshold counts for
//     its first variant), empty in repetition rows;
//   - search_best and search_score_UNIT, only in a run that searched
//     (Report.Search): in "all" rows of the visited values, true for the
//     best value (false for the others) and the mean score of the value's
//     windows in the objective's unit (search_score_req_per_s,
//     search_score_req_per_server_cpu_s, or search_score_p99_handshake_ms,
//     where lower is better); the plateau column marks the plateau;
//   - capacity_knee_per_s and capacity_fail_per_s, only in a capacity
//     search (Report.Capacities): in "all" rows, the highest rate whose
//     step met the targets (empty when none did) and the lowest whose step
//     did not (empty when none failed: the knee is at least the search's
//     maximum).
//
// The search's and capacity search's answers are columns of the "all"
// rows rather than a second section: a spreadsheet reads one table,
// and a filter on search_best or a sort on capacity_knee_per_s finds them.
//
// A run without variants gives the header row alone; in a run whose
// baseline was not measured, every variant's test is TestNoBaseline and
// its comparison cells are empty. It returns any error of w.
func WriteCSV(w io.Writer, m *analysis.Report) error {
	if m.Err != nil {
		return fmt.Errorf("write csv: %w", m.Err)
	}
	r, s := m.Run, m.Summary
	sweepSet, probeSet := map[string]bool{}, map[string]bool{}
	for i := range r.Variants {
		for k := range r.Variants[i].Sweep {
			sweepSet[k] = true
		}
		for j := range r.Variants[i].Reps {
			for k := range r.Variants[i].Reps[j].Probes {
				probeSet[k] = true
			}
		}
	}
	sweepKeys := slices.Sorted(maps.Keys(sweepSet))
	probeNames := slices.Sorted(maps.Keys(probeSet))

	header := []string{"variant", "series"}
	for _, k := range sweepKeys {
		header = append(header, "sweep."+k)
	}
	header = append(header, "rep", "window_s", "requests", "req_per_s", "errors")
	for c := range results.NumErrorClasses {
		header = append(header, "errors_"+c.String())
	}
	header = append(header, "resumed", "handshake_p50_ms", "handshake_p99_ms", "total_p50_ms", "total_p99_ms",
		"scheduled", "missed", "intended_p50_ms", "intended_p99_ms",
		"client_busy_max", "client_cpu_s", "req_per_client_cpu_s", "client_us_per_request", "server_cpu_s", "req_per_server_cpu_s", "client_bound", "other_load", "client_other_share", "other_busiest", "failed", "unanswered", "warmup_responses", "warmup_errors", "after_responses", "after_errors", "client_time_wait", "client_peak_rss_mib", "client_kib_per_slot",
		"rate_min", "rate_median", "rate_max", "stalls", "stall_seconds", "listen_overflows", "diagnoses", "not_attributable", "other_traffic")
	header = append(header, serverCPUsColumns...)
	for _, p := range probeNames {
		header = append(header, "probe."+p+".delta", "probe."+p+".per_request")
	}
	header = append(header, "mean_req_per_s", "stddev", "ci95_low", "ci95_high", "delta_pct", "p_value", "significant", "test",
		"p_adjusted", "adjustment", "family", "mde_pct", "equivalence_bound_pct", "equivalence_margin_pct", "equivalent", "plateau")
	checks := m.Thresholds
	if len(checks) > 0 {
		header = append(header, "thresholds")
	}
	points, best := map[string]*analysis.SearchPoint{}, "" // a searched variant's point by name; the best's name
	if ss := m.Search; ss != nil {
		header = append(header, "search_best", "search_score_"+searchUnitColumn[ss.Search.Maximize])
		for k := range ss.Points {
			points[ss.Points[k].Variant] = &ss.Points[k]
		}
		if ss.Best >= 0 {
			best = ss.Points[ss.Best].Variant
		}
	}
	capacity := map[int]*results.Capacity{} // a variant's capacity, by index
	if m.Capacities != nil {
		header = append(header, "capacity_knee_per_s", "capacity_fail_per_s")
		for k := range m.Capacities {
			capacity[m.Capacities[k].Variant] = &m.Capacities[k]
		}
	}
	serverCPU := slices.ContainsFunc(s.Variants, func(v analysis.VariantSummary) bool { return v.ServerCPUStats.N > 0 })
	if serverCPU {
		header = append(header, serverCPUHeader...)
	}
	tail := len(header) - slices.Index(header, "plateau") - 1 // the columns after plateau

	cw := csv.NewWriter(w)
	_ = cw.Write(header) // errors surface from Flush/Error below
	for i := range r.Variants {
		v, vs := &r.Variants[i], &s.Variants[i]
		lead := []string{v.Name, v.Series}
		for _, k := range sweepKeys {
			lead = append(lead, v.Sweep[k])
		}
		var sum results.Counts
		for j := range v.Reps {
			rep := &v.Reps[j]
			t := &rep.Total
			sum.Add(&t.Counts)
			row := append(slices.Clone(lead), strconv.Itoa(rep.Index+1), csvF3(t.Window.Length().Seconds()),
				csvUint(t.Requests), csvF3(t.Rate()), csvUint(t.Errors.Total()))
			for c := range t.Errors {
				row = append(row, csvUint(t.Errors[c].Count))
			}
			row = append(row, csvUint(t.Resumed),
				csvMs(t.Latency.Handshake, 50), csvMs(t.Latency.Handshake, 99), csvMs(t.Latency.Total, 50), csvMs(t.Latency.Total, 99))
			row = append(row, openLoopCells(t.Scheduled, t.Missed, t.Latency.Intended)...)
			ra := &m.Reps[i][j]
			c := ra.ClientCPU
			busyMax, clientSec, perClient, clientUs := "", "", "", ""
			if c.Measured > 0 {
				busyMax = csvF4(c.BusyMax)
			}
			if c.Measured == c.Groups && c.Groups > 0 {
				clientSec = csvF3(c.Seconds)
				if c.Seconds > 0 {
					perClient = csvF3(float64(t.Requests) / c.Seconds)
				}
			}
			if us, _, ok := c.PerRequest(t.Requests); ok {
				clientUs = csvF3(us)
			}
			serverSec, perServer := "", ""
			if rep.ServerCPU != nil {
				serverSec = csvF3(rep.ServerCPU.Seconds)
				if rep.ServerCPU.Seconds > 0 {
					perServer = csvF3(float64(t.Requests) / rep.ServerCPU.Seconds)
				}
			}
			tw, rss := "", ""
			if rep.TimeWait != nil {
				tw = strconv.Itoa(*rep.TimeWait)
			}
			if t.PeakRSS > 0 {
				rss = csvF3(float64(t.PeakRSS) / (1 << 20))
			}
			perSlot := ""
			if m, ok := rep.SlotMemory(); ok && m.Known {
				perSlot = csvF3(m.PerSlot / 1024)
			}
			otherShare, busiest := otherCells(ra.MostOthers)
			row = append(row, busyMax, clientSec, perClient, clientUs, serverSec, perServer, strconv.FormatBool(len(ra.ClientBoundGroups) > 0),
				strconv.FormatBool(len(ra.OtherLoadGroups) > 0), otherShare, busiest, notes.Failure(rep.Failed).String(),
				csvUint(t.Outside.Unanswered.Total()))
			row = append(row, outsideCells(&t.Outside)...)
			row = append(row, tw, rss, perSlot)
			row = append(row, timelineCells(&ra.Timeline)...)
			row = append(row, serverCPUsCells(ra)...)
			for _, name := range probeNames {
				p, ok := rep.Probes[name]
				if !ok || p.Error != "" {
					row = append(row, "", "")
					continue
				}
				per := ""
				if t.Requests > 0 {
					per = csvF6(p.Delta() / float64(t.Requests))
				}
				row = append(row, csvG(p.Delta()), per)
			}
			row = append(row, "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "")
			row = append(row, make([]string, tail)...)
			_ = cw.Write(row)
		}

		row := append(slices.Clone(lead), "all", "", csvUint(sum.Requests), "", csvUint(sum.Errors.Total()))
		for c := range sum.Errors {
			row = append(row, csvUint(sum.Errors[c].Count))
		}
		row = append(row, csvUint(sum.Resumed), csvMs(vs.Handshake, 50), csvMs(vs.Handshake, 99), csvMs(vs.Total, 50), csvMs(vs.Total, 99))
		row = append(row, openLoopCells(vs.Scheduled, vs.Missed, vs.Intended)...)
		busyMax, serverSec, perServer := "", "", ""
		if vs.HasClientCPU {
			busyMax = csvF4(vs.ClientBusyMax)
		}
		if vs.ServerCPUReps > 0 {
			serverSec = csvF3(vs.ServerCPUSeconds)
		}
		if x, ok := vs.RequestsPerServerCPU(); ok {
			perServer = csvF3(x)
		}
		failed := ""
		if vs.FailedReps > 0 {
			failed = fmt.Sprintf("%d of %d reps", vs.FailedReps, vs.Stats.N)
		}
		if nm := notMeasuredCell(r, v.Name); nm != "" {
			failed = strings.TrimPrefix(failed+"; "+nm, "; ")
		}
		clientUs := ""
		if x, ok := vs.ClientMicrosPerRequest(); ok {
			clientUs = csvF3(x)
		}
		row = append(row, busyMax, "", "", clientUs, serverSec, perServer, strconv.FormatBool(vs.ClientBoundReps > 0),
			strconv.FormatBool(vs.OtherLoadReps > 0), "", "", failed,
			csvUint(sum.Outside.Unanswered.Total()))
		row = append(row, outsideCells(&sum.Outside)...)
		row = append(row, "", "", "", "", "", "", "", "", "", "", "", "") // client_time_wait … other_traffic
		row = append(row, serverCPUsAllCells(vs)...)
		for _, name := range probeNames {
			i := slices.IndexFunc(vs.Probes, func(p analysis.ProbeSummary) bool { return p.Name == name })
			delta, per := "", ""
			if i >= 0 && vs.Probes[i].N > 0 {
				delta = csvG(vs.Probes[i].MeanDelta)
			}
			if i >= 0 && vs.Probes[i].HasPerRequest {
				per = csvF6(vs.Probes[i].PerRequest)
			}
			row = append(row, delta, per)
		}
		st, c := vs.Stats, vs.Comparison
		mean, sd, lo, hi := "", "", "", ""
		if st.N > 0 {
			mean = csvF3(st.Mean)
		}
		if st.N > 1 {
			sd = csvF3(st.StdDev)
		}
		if st.HasCI {
			lo, hi = csvF3(st.CI95Low), csvF3(st.CI95High)
		}
		delta, p, sig, test := "", "", "", "baseline"
		if !vs.IsBaseline {
			test, sig = c.Test, strconv.FormatBool(c.Significant)
			if st.N > 0 && s.Baseline >= 0 && s.Variants[s.Baseline].Stats.N > 0 {
				delta = csvF3(c.DeltaPct)
			}
			if c.Tested() {
				p = csvG(c.PValue)
			}
		}
		padj, adj, fam, mde, bound, margin, equiv := "", "", "", "", "", "", ""
		if !vs.IsBaseline && c.Tested() {
			padj, adj, fam = csvG(c.PAdjusted), c.Adjustment, strconv.Itoa(c.Family)
			if c.HasMDE {
				mde = csvF3(c.MDEPct)
			}
			if c.HasBound {
				bound = csvF3(c.EquivalenceBoundPct)
				margin, equiv = csvG(c.EquivalenceMarginPct), strconv.FormatBool(c.Equivalent)
			}
		}
		plateau := ""
		if vs.Series != "" {
			plateau = strconv.FormatBool(vs.Plateau)
		}
		row = append(row, mean, sd, lo, hi, delta, p, sig, test, padj, adj, fam, mde, bound, margin, equiv, plateau)
		if len(checks) > 0 {
			row = append(row, tables.ThresholdCell(checks, v.Name))
		}
		if m.Search != nil {
			isBest, score := "", ""
			if p := points[v.Name]; p != nil && p.Stats.N > 0 {
				isBest, score = strconv.FormatBool(v.Name == best), csvF3(p.Stats.Mean)
			}
			row = append(row, isBest, score)
		}
		if m.Capacities != nil {
			knee, fail := "", ""
			if c := capacity[i]; c != nil {
				if c.Knee > 0 {
					knee = csvF3(c.Knee)
				}
				if c.Fail > 0 {
					fail = csvF3(c.Fail)
				}
			}
			row = append(row, knee, fail)
		}
		if serverCPU {
			row = append(row, serverCPUCells(vs)...)
		}
		_ = cw.Write(row)
	}
	// A variant given up on before any repetition: one "all" row saying why.
	failedCol := slices.Index(header, "failed")
	for _, nm := range r.NotMeasured {
		if slices.ContainsFunc(r.Variants, func(v results.Variant) bool { return v.Name == nm.Variant }) {
			continue
		}
		row := make([]string, len(header))
		row[0], row[len(sweepKeys)+2] = nm.Variant, "all"
		row[failedCol] = notMeasuredCell(r, nm.Variant)
		_ = cw.Write(row)
	}
	// A window an interrupt cut short, or one the exclude_flagged policy
	// set aside: a row of its own, its rep marked "partial" or
	// "excluded", with its figures and the reports' line; in no statistic.
	col := func(name string) int { return slices.Index(header, name) }
	for _, kind := range []struct {
		mark  string
		reps  func(v *results.Variant) []results.Rep
		lines []string
	}{
		{"partial", func(v *results.Variant) []results.Rep { return v.Partial }, m.Partial.Strings()},
		{"excluded", func(v *results.Variant) []results.Rep { return v.Excluded }, m.Excluded.Strings()},
	} {
		lines := kind.lines
		for i := range r.Variants {
			v := &r.Variants[i]
			for _, p := range kind.reps(v) {
				t := &p.Total
				row := make([]string, len(header))
				row[0], row[1], row[len(sweepKeys)+2] = v.Name, v.Series, strconv.Itoa(p.Index+1)+" "+kind.mark
				for k, key := range sweepKeys {
					row[2+k] = v.Sweep[key]
				}
				row[col("window_s")], row[col("requests")], row[col("req_per_s")] = csvF3(t.Window.Length().Seconds()), csvUint(t.Requests), csvF3(t.Rate())
				row[col("errors")] = csvUint(t.Errors.Total())
				row[failedCol], lines = lines[0], lines[1:]
				_ = cw.Write(row)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// serverCPUHeader are the columns of requests per server CPU-second
// compared with the baseline (VariantSummary.ServerCPUStats and
// ServerCPUComparison), filled in "all" rows.
var serverCPUHeader = []string{"server_cpu_mean_req_per_cpu_s", "server_cpu_ci95_low", "server_cpu_ci95_high", "server_cpu_delta_pct",
	"server_cpu_p_value", "server_cpu_p_adjusted", "server_cpu_significant", "server_cpu_family"}

// serverCPUCells are the serverCPUHeader cells of v; empty where not
// defined (no reading, the baseline, no test).
func serverCPUCells(v *analysis.VariantSummary) []string {
	st, c := v.ServerCPUStats, v.ServerCPUComparison
	cells := make([]string, len(serverCPUHeader))
	if st.N > 0 {
		cells[0] = csvF3(st.Mean)
	}
	if st.HasCI {
		cells[1], cells[2] = csvF3(st.CI95Low), csvF3(st.CI95High)
	}
	if !v.IsBaseline && c.Tested() {
		cells[3], cells[4], cells[5] = csvF3(c.DeltaPct), csvG(c.PValue), csvG(c.PAdjusted)
		cells[6], cells[7] = strconv.FormatBool(c.Significant), strconv.Itoa(c.Family)
	}
	return cells
}

// timelineCells are a repetition's rate_min, rate_median, rate_max,
// stalls (how many; empty when not judged), stall_seconds ("3.0-5.0"
// for each, ";"-separated), listen_overflows (empty when not available)
// diagnoses (the rules found, ";"-separated; "no timeline" for a
// repetition stored before timelines), not_attributable (the rules whose
// counters moved on a host but not with the run's own connections,
// ";"-separated) and other_traffic (the opens beyond the run's connects
// on each host where other traffic shared it, "400@local", ";"-separated).
func timelineCells(tl *diagnosis.Repetition) []string {
	if tl.NoTimeline {
		return []string{"", "", "", "", "", "", "no timeline", "", ""}
	}
	out := make([]string, 9)
	if r := tl.Range; r != nil {
		out[0], out[1], out[2] = csvF3(r.Min), csvF3(r.Median), csvF3(r.Max)
	}
	if tl.StallsJudged {
		out[3] = strconv.Itoa(len(tl.Stalls))
	}
	var spans, rules []string
	for _, st := range tl.Stalls {
		spans = append(spans, strconv.FormatFloat(st.Start.Seconds(), 'f', 1, 64)+"-"+strconv.FormatFloat(st.End.Seconds(), 'f', 1, 64))
	}
	out[4] = strings.Join(spans, ";")
	if tl.ListenOverflows != nil {
		out[5] = csvUint(*tl.ListenOverflows)
	}
	for _, d := range tl.Diagnoses {
		rules = append(rules, d.Rule)
	}
	out[6] = strings.Join(rules, ";")
	var foreign, other []string
	for _, h := range tl.HostOnly {
		foreign = append(foreign, h.Rule)
	}
	for _, t := range tl.Traffic {
		if t.Shared {
			other = append(other, csvUint(t.Other)+"@"+t.Host)
		}
	}
	out[7], out[8] = strings.Join(foreign, ";"), strings.Join(other, ";")
	return out
}

// searchUnitColumn names a search's score column by its objective's unit
// (SearchSummary.Unit).
var searchUnitColumn = map[results.Objective]string{
	results.ObjectiveRate: "req_per_s", results.ObjectiveRatePerCPU: "req_per_server_cpu_s", results.ObjectiveP99: "p99_handshake_ms",
}

// openLoopCells are the scheduled, missed, intended_p50_ms and
// intended_p99_ms cells: empty in a closed loop (nothing scheduled).
func openLoopCells(scheduled, missed uint64, intended *results.Histogram) []string {
	if scheduled == 0 {
		return []string{"", "", "", ""}
	}
	return []string{csvUint(scheduled), csvUint(missed), csvMs(intended, 50), csvMs(intended, 99)}
}

// notMeasuredCell is the failed cell's "not measured: REASON" for a
// variant the run gave up on (Run.NotMeasured), "" for any other.
func notMeasuredCell(r *results.Run, name string) string {
	for _, nm := range r.NotMeasured {
		if nm.Variant == name {
			return "not measured: " + nm.Reason
		}
	}
	return ""
}

func csvUint(n uint64) string { return strconv.FormatUint(n, 10) }

func csvF3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func csvF4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func csvF6(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

func csvG(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

func csvMs(h *results.Histogram, q float64) string {
	if results.EmptyHistogram(h) {
		return ""
	}
	return format.Millis(h.ValueAtQuantile(q))
}

// otherCells are a repetition's client_other_share (the largest share of
// a group's CPUs that other processes took, RepReport.MostOthers; empty
// when no group measured it) and other_busiest ("comm pid N", the busiest
// other process of that group; empty when none was named).
func otherCells(gc *analysis.GroupCPU) (share, busiest string) {
	if gc == nil {
		return "", ""
	}
	if len(gc.Top) > 0 {
		busiest = fmt.Sprintf("%s pid %d", gc.Top[0].Comm, gc.Top[0].PID)
	}
	return csvF4(gc.Others), busiest
}

// outsideCells are the warmup_responses, warmup_errors, after_responses
// and after_errors cells: what the client did outside the window, its
// errors counted by class as in the window (a 503 is an error).
func outsideCells(o *results.Outside) []string {
	return []string{csvUint(o.Warmup), csvUint(o.WarmupErrorTotal()), csvUint(o.Late), csvUint(o.AfterClasses.Total())}
}
