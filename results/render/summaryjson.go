package render

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/results/tables"
	"io"
	"strconv"
	"time"
)

// SummaryJSON is the machine-readable summary of a run ("kaeload run
// --format json"): what a CI pipeline reads to gate on, without the
// histograms and per-group counters of run.json.
type SummaryJSON struct {
	// Name, Started, Finished, Interrupted and Incomplete are the Run's.
	Name        string    `json:"name"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished"`
	Interrupted bool      `json:"interrupted,omitempty"`
	Incomplete  bool      `json:"incomplete,omitempty"`
	// Baseline names the baseline variant; BaselineMeasured says whether
	// it has a repetition. Without one nothing is compared: NoComparison
	// says so (RunSummary.NoComparison) and every variant's comparison
	// has the test TestNoBaseline.
	Baseline         string `json:"baseline,omitempty"`
	BaselineMeasured bool   `json:"baseline_measured"`
	NoComparison     string `json:"no_comparison,omitempty"`
	// Variants are in plan order.
	Variants []VariantJSON `json:"variants"`
	// Failed names the variants with a failed repetition.
	Failed []string `json:"failed,omitempty"`
	// NotMeasured are the variants the run could not measure, and why
	// (Run.NotMeasured).
	NotMeasured []results.NotMeasured `json:"not_measured,omitempty"`
	// Partial are the windows an interrupt cut short: what each measured
	// until then, in no statistic.
	Partial []PartialJSON `json:"partial,omitempty"`
	// Excluded are the lines of the windows the exclude_flagged policy set
	// aside and measured again (analysis.ExcludedLines).
	Excluded []string `json:"excluded,omitempty"`
	// Thresholds are the threshold checks (CheckThresholds), and
	// ThresholdsPassed whether every one passed (true without any).
	Thresholds       []analysis.ThresholdCheck `json:"thresholds,omitempty"`
	ThresholdsPassed bool                      `json:"thresholds_passed"`
	// Warnings are every warning the reports show (analysis.AllWarnings).
	Warnings []string `json:"warnings,omitempty"`
	// Hints are the reports' hint lines (analysis.Hints).
	Hints []string `json:"hints,omitempty"`
	// Metrics says where the live metrics were served and whether the
	// final values were scraped (analysis.MetricsLine); MetricsScraped
	// is that answer alone. Both absent when the run served none.
	Metrics        string `json:"metrics,omitempty"`
	MetricsScraped *bool  `json:"metrics_final_scraped,omitempty"`
	// Search is the search answer (Report.Search); absent when the run is
	// no search.
	Search *SearchJSON `json:"search,omitempty"`
	// Capacity is the capacity answer (Report.Capacities); absent when the
	// run is no capacity search.
	Capacity *CapacityJSON `json:"capacity,omitempty"`
	// Speed is the crypto speed table (Report.Speed); absent when no
	// variant ran a speed command.
	Speed *SpeedJSON `json:"speed,omitempty"`
	// Sweeps are the sweeps' answers (RunSummary.Sweeps): which value is
	// best, or the plateau; absent when the run sweeps nothing.
	Sweeps []SweepJSON `json:"sweeps,omitempty"`
	// Drift is the machine's drift over the rounds (RunSummary.Drift);
	// absent with fewer than two rounds.
	Drift *DriftJSON `json:"drift,omitempty"`
}

// SweepJSON is one sweep's answer in a SummaryJSON
// (analysis.SweepSummary).
type SweepJSON struct {
	// Series is the series name (the variant name template); Keys the
	// swept keys.
	Series string   `json:"series"`
	Keys   []string `json:"keys"`
	// Values are the sweep's values in chart order (by number when the
	// one key is numeric, run order otherwise), each with its variant.
	Values []SweepValueJSON `json:"values"`
	// Top is the value with the highest mean among those with 2+
	// repetitions (among all when none has); Best the value
	// significantly faster than every other (absent when none is);
	// Plateau the values no other is significantly faster than (absent
	// when no pair of values could be tested).
	Top     string   `json:"top,omitempty"`
	Best    string   `json:"best,omitempty"`
	Plateau []string `json:"plateau,omitempty"`
	// Family is the number of pairs of values judged together; Caution
	// is set when a value had fewer than three repetitions.
	Family  int    `json:"family"`
	Caution string `json:"caution,omitempty"`
	// Verdict says it in words, as the reports do.
	Verdict string `json:"verdict,omitempty"`
}

// SweepValueJSON is one value of a sweep: its label ("50", or
// "k1=v1 k2=v2" for several keys) and its variant.
type SweepValueJSON struct {
	Value   string `json:"value"`
	Variant string `json:"variant"`
}

// DriftJSON is the drift over a run's rounds (analysis.DriftSummary).
type DriftJSON struct {
	// Rounds is the number of rounds.
	Rounds int `json:"rounds"`
	// RoundPct is, per round, the mean deviation of the variants measured
	// in it from their own means, in percent; null for a round without a
	// rate.
	RoundPct []*float64 `json:"round_pct"`
	// TrendPct is the change from the first round to the last, in
	// percent; absent with fewer than two rounds of rates.
	TrendPct *float64 `json:"trend_pct,omitempty"`
	// Controlled is false when the order let drift land between
	// variants (sequential); OrderUnknown is true for a run that did not
	// record its order.
	Controlled   bool `json:"controlled"`
	OrderUnknown bool `json:"order_unknown,omitempty"`
}

// SpeedJSON is the crypto speed table in a SummaryJSON: the figures of
// every variant, run once per variant with the server stopped, and their
// Δ % against the baseline.
type SpeedJSON struct {
	// Baseline names the baseline; BaselineMeasured is false when it was
	// not measured (then no figure has a delta_pct).
	Baseline         string `json:"baseline"`
	BaselineMeasured bool   `json:"baseline_measured"`
	// Commands are the speed command lines by position (a figure's
	// command indexes them).
	Commands []string `json:"commands"`
	// Figures are the table's rows.
	Figures []SpeedFigureJSON `json:"figures"`
	// Failures are the speed runs that failed or whose output was not
	// understood.
	Failures []SpeedFailureJSON `json:"failures,omitempty"`
}

// SpeedFailureJSON is a speed run that failed (analysis.SpeedFailure).
type SpeedFailureJSON struct {
	Variant     string `json:"variant"`
	Command     int    `json:"command"`
	CommandLine string `json:"command_line"`
	Error       string `json:"error"`
}

// SpeedFigureJSON is one figure of the crypto speed table.
type SpeedFigureJSON struct {
	// Command is the position of the command that printed it; Figure
	// names it as the reports do ("[0] RSA 2048 signing").
	Command   int    `json:"command"`
	Figure    string `json:"figure"`
	Algorithm string `json:"algorithm"`
	Operation string `json:"operation,omitempty"`
	Block     int    `json:"block,omitempty"`
	Unit      string `json:"unit"`
	// Values are the figure per variant that has it, by variant name.
	Values map[string]float64 `json:"values"`
	// DeltaPct is, per variant but the baseline, its Δ % against the
	// baseline's figure, where both have it.
	DeltaPct map[string]float64 `json:"delta_pct,omitempty"`
}

// SearchJSON is a search's answer in a SummaryJSON.
type SearchJSON struct {
	// Series, Key and Objective say what was searched.
	Series    string            `json:"series"`
	Key       string            `json:"key"`
	Objective results.Objective `json:"objective"`
	// Windows is the windows measured; Grid the full grid's size.
	Windows int `json:"windows"`
	Grid    int `json:"grid"`
	// Best is the best value, with its variant and the statistics of its
	// scores in the objective's unit; absent when nothing was measured.
	Best        string       `json:"best,omitempty"`
	BestVariant string       `json:"best_variant,omitempty"`
	BestScore   *stats.Stats `json:"best_score,omitempty"`
	// Plateau lists the values not significantly worse than the best,
	// in grid order; PlateauLow is the lowest of them.
	Plateau    []string `json:"plateau,omitempty"`
	PlateauLow string   `json:"plateau_low,omitempty"`
	// Untested are the values measured once (on no plateau).
	Untested []string `json:"untested,omitempty"`
	// Caution is SearchSummary.Caution.
	Caution string `json:"caution,omitempty"`
	// Lines say it in words, as the text report does.
	Lines []string `json:"lines"`
}

// CapacityJSON is a capacity search's answer in a SummaryJSON.
type CapacityJSON struct {
	// Line says it in one line (analysis.CapacityLine).
	Line string `json:"line"`
	// Variants hold each variant's knee, in plan order.
	Variants []CapacityVariantJSON `json:"variants"`
}

// CapacityVariantJSON is one variant's capacity (Capacity).
type CapacityVariantJSON struct {
	Variant string `json:"variant"`
	// Knee is the highest rate per second that met the targets (0: none
	// did); Fail the lowest that did not (0: none).
	Knee float64 `json:"knee"`
	Fail float64 `json:"fail,omitempty"`
	// BelowFrom: no step met the targets; AtMax: every step did up to Max.
	BelowFrom bool `json:"below_from,omitempty"`
	AtMax     bool `json:"at_max,omitempty"`
	// Steps is the number of steps measured.
	Steps int `json:"steps"`
}

// VariantJSON sums up one variant in a SummaryJSON. Latencies are in
// milliseconds over the repetitions' merged histograms; absent when not
// measured.
type VariantJSON struct {
	Name            string      `json:"name"`
	Reps            int         `json:"reps"`
	FailedReps      int         `json:"failed_reps,omitempty"`
	ReqPerSec       stats.Stats `json:"req_per_s"`
	Requests        uint64      `json:"requests"`
	Errors          uint64      `json:"errors"`
	ErrorShare      float64     `json:"error_share"`
	ClientBoundReps int         `json:"client_bound_reps,omitempty"`
	// Scheduled and Missed are the open-loop starts due and missed
	// (VariantSummary.Scheduled, .Missed); absent in a closed loop.
	Scheduled uint64 `json:"scheduled,omitempty"`
	Missed    uint64 `json:"missed,omitempty"`
	// OtherLoadReps counts the repetitions in which other processes took
	// a large share of a group's CPUs (VariantSummary.OtherLoadReps); the
	// warnings name them.
	OtherLoadReps int         `json:"other_load_reps,omitempty"`
	LatencyMs     LatencyJSON `json:"latency_ms"`
	// ClientUsPerRequest is the client's CPU µs per request
	// (VariantSummary.ClientMicrosPerRequest); absent when not measured.
	ClientUsPerRequest *float64 `json:"client_us_per_request,omitempty"`
	// ReqPerServerCPUSecond is the requests per second of the server's
	// CPU time (VariantSummary.RequestsPerServerCPU): what offload saves
	// the server; absent when the server's CPU was not read.
	ReqPerServerCPUSecond *float64 `json:"req_per_server_cpu_s,omitempty"`
	// ServerCPU summarises the repetitions' requests per server
	// CPU-second (VariantSummary.ServerCPUStats), and ServerCPUComparison
	// compares them with the baseline's like Comparison compares req/s
	// (VariantSummary.ServerCPUComparison); both absent when the server's
	// CPU was not read, the comparison also for the baseline.
	ServerCPU           *stats.Stats      `json:"server_cpu_req_per_cpu_s,omitempty"`
	ServerCPUComparison *stats.Comparison `json:"server_cpu_comparison,omitempty"`
	// Probes are the variant's probe readings over its repetitions
	// (VariantSummary.Probes), e.g. the accelerator's operations per
	// request.
	Probes []ProbeJSON `json:"probes,omitempty"`
	// ServerCPUs are the variant's verdicts on the server's CPUs: shared,
	// and whether its repetitions loaded the server; absent when none was
	// recorded.
	ServerCPUs *ServerCPUsVariantJSON `json:"server_cpus,omitempty"`
	// Comparison is against the baseline; nil for the baseline itself.
	Comparison *stats.Comparison `json:"comparison,omitempty"`
	// Verdict is the comparison in words, with what else the figures
	// measured in the same line (the reports' verdict); Caveat is that
	// alone for the variant ("measured the client: CLIENT-BOUND in 3 of
	// 3 repetitions"), absent when none of its repetitions is flagged.
	Verdict string `json:"verdict,omitempty"`
	Caveat  string `json:"caveat,omitempty"`
	// MDESpread names the repetitions that alone make most of the spread
	// behind the comparison's MDE (VariantSummary.MDESpread).
	MDESpread string `json:"mde_spread,omitempty"`
	// ServerInfo is the output of the server's info commands for the
	// variant (nginx -V, openssl version: results.Variant.Info).
	ServerInfo []results.InfoRun `json:"server_info,omitempty"`
	// ServerProfile is where the server's CPU went (Report.Profile), or
	// why that is not known; absent when the run did not profile.
	ServerProfile *ProfileJSON `json:"server_profile,omitempty"`
	// Repetitions are the variant's repetitions in order, each with what
	// its timeline says.
	Repetitions []RepJSON `json:"repetitions"`
}

// RepJSON is one repetition in a SummaryJSON: its figures, its timeline
// and what the analysis of the timeline found (RepReport.Timeline).
type RepJSON struct {
	// Rep is the repetition's 1-based number, as the reports show it.
	Rep int `json:"rep"`
	// ReqPerSec, Requests and Errors are its total's; Failed says why it
	// failed ("" for a good one).
	ReqPerSec float64 `json:"req_per_s"`
	Requests  uint64  `json:"requests"`
	Errors    uint64  `json:"errors"`
	Failed    string  `json:"failed,omitempty"`
	// Warmup and After are what its client did outside the window,
	// counted by the window's rules and in no figure: the warm-up's
	// responses and errors, and the responses completed and requests cut
	// off after the window.
	Warmup PhaseJSON `json:"warmup"`
	After  PhaseJSON `json:"after"`
	// NoTimeline is true for a repetition stored before timelines; the
	// fields below are then absent.
	NoTimeline bool `json:"no_timeline,omitempty"`
	// IntervalS is the timeline's interval in seconds.
	IntervalS float64 `json:"interval_s,omitempty"`
	// RateRange is min / median / max of the window's interval rates
	// (req/s), over Intervals intervals.
	RateRange *diagnosis.RateRange `json:"rate_range,omitempty"`
	// Stalls are the window's stalls; StallsJudged whether the window
	// could be judged for them.
	Stalls       []StallJSON `json:"stalls,omitempty"`
	StallsJudged bool        `json:"stalls_judged,omitempty"`
	// ListenOverflows is the server's ListenOverflows over the window
	// (the listen_overflows threshold's figure); absent when not
	// available.
	ListenOverflows *uint64 `json:"listen_overflows,omitempty"`
	// Timeline holds every interval, the warm-up's first (negative
	// start_s).
	Timeline []PointJSON `json:"timeline,omitempty"`
	// TCP holds, by host name, each host's kernel TCP counters' growth
	// over the window, keyed by counter name.
	TCP map[string]TCPHostJSON `json:"tcp,omitempty"`
	// Diagnoses are what went wrong inside the window.
	Diagnoses []DiagnosisJSON `json:"diagnoses,omitempty"`
	// NotAttributable are the kernel counters' changes on a host that
	// the run's own connections do not show: no diagnosis.
	NotAttributable []HostOnlyJSON `json:"not_attributable,omitempty"`
	// Traffic cross-checks each host's opens with the run's connects.
	Traffic []diagnosis.Traffic `json:"traffic,omitempty"`
	// Listener is the target's listener over the window.
	Listener *diagnosis.Listener `json:"listener,omitempty"`
	// NotJudged says which rules could not judge the window, and why.
	NotJudged []string `json:"not_judged,omitempty"`
	// ServerCPUs is how the server's CPUs were used (absent when not
	// recorded) and Saturation whether the window loaded the server
	// (absent when not judged).
	ServerCPUs *ServerCPUsJSON `json:"server_cpus,omitempty"`
	Saturation *SaturationJSON `json:"saturation,omitempty"`
}

// PartialJSON is a window an interrupt cut short (Variant.Partial): its
// variant and 1-based repetition, how long it ran of the planned length,
// its requests, rate and errors, and the line the reports show.
type PartialJSON struct {
	Variant   string  `json:"variant"`
	Rep       int     `json:"rep"`
	WindowS   float64 `json:"window_s"`
	PlannedS  float64 `json:"planned_s"`
	Requests  uint64  `json:"requests"`
	ReqPerSec float64 `json:"req_per_s"`
	Errors    uint64  `json:"errors"`
	Line      string  `json:"line"`
}

// partialJSON lists r's partial windows with m's lines (PartialLines
// gives one per window, in the same order).
func partialJSON(r *results.Run, lines []string) []PartialJSON {
	var out []PartialJSON
	for i := range r.Variants {
		for _, p := range r.Variants[i].Partial {
			t := &p.Total
			out = append(out, PartialJSON{Variant: r.Variants[i].Name, Rep: p.Index + 1, WindowS: t.Window.Length().Seconds(),
				PlannedS: p.PartialOf.Seconds(), Requests: t.Requests, ReqPerSec: t.Rate(), Errors: t.Errors.Total(), Line: lines[len(out)]})
		}
	}
	return out
}

// PhaseJSON is what a repetition's client did in a phase outside its
// window: the responses it read (Status by class: "2xx", "5xx", "other")
// and its errors by class, with a status >= 400 counted as "status" as
// in the window; CutOff, after the window only, the requests in flight
// that never completed.
type PhaseJSON struct {
	Responses     uint64              `json:"responses"`
	Status        map[string]uint64   `json:"status,omitempty"`
	Errors        uint64              `json:"errors"`
	ErrorsByClass results.ErrorCounts `json:"errors_by_class,omitzero"`
	CutOff        uint64              `json:"cut_off,omitempty"`
}

// statusJSON keys the status classes that occurred: "2xx" … "5xx", and
// "other".
func statusJSON(st [6]uint64) map[string]uint64 {
	var m map[string]uint64
	for i, n := range st {
		if n == 0 {
			continue
		}
		if m == nil {
			m = map[string]uint64{}
		}
		k := "other"
		if i > 0 {
			k = strconv.Itoa(i) + "xx"
		}
		m[k] = n
	}
	return m
}

// StallJSON is one stall: its seconds relative to the window's start and
// its rate.
type StallJSON struct {
	StartS    float64 `json:"start_s"`
	EndS      float64 `json:"end_s"`
	ReqPerSec float64 `json:"req_per_s"`
}

// PointJSON is one interval of a repetition's timeline (results.Point):
// start_s and length_s in seconds from the window's start, its counts,
// its latency percentiles in milliseconds and its CPU shares (0..1);
// those not measured are absent.
type PointJSON struct {
	StartS        float64             `json:"start_s"`
	LengthS       float64             `json:"length_s"`
	Requests      uint64              `json:"requests"`
	Errors        uint64              `json:"errors"`
	ErrorsByClass results.ErrorCounts `json:"errors_by_class,omitzero"`
	Started       uint64              `json:"started"`
	HandshakeP50  *float64            `json:"handshake_p50_ms,omitempty"`
	HandshakeP99  *float64            `json:"handshake_p99_ms,omitempty"`
	TotalP50      *float64            `json:"total_p50_ms,omitempty"`
	TotalP99      *float64            `json:"total_p99_ms,omitempty"`
	ClientBusy    *float64            `json:"client_busy,omitempty"`
	ClientCPUs    *float64            `json:"client_cpus_busy,omitempty"`
	ServerBusy    *float64            `json:"server_busy,omitempty"`
}

// TCPHostJSON is one host's TCP counters over a window: whose namespace
// it is, each counter's growth by name, and the counters not available
// (never a zero) with why.
type TCPHostJSON struct {
	Client       bool              `json:"client,omitempty"`
	Server       bool              `json:"server,omitempty"`
	Shared       bool              `json:"shared,omitempty"`
	Deltas       map[string]uint64 `json:"deltas"`
	Unread       map[string]int    `json:"intervals_not_read,omitempty"`
	NotAvailable map[string]string `json:"not_available,omitempty"`
}

// DiagnosisJSON is one diagnosis (diagnosis.Diagnosis) of a repetition.
type DiagnosisJSON struct {
	Rule        string              `json:"rule"`
	Title       string              `json:"title"`
	Cause       string              `json:"cause"`
	Figure      string              `json:"figure"`
	Consequence string              `json:"consequence"`
	Fix         string              `json:"fix"`
	Counters    []diagnosis.Counter `json:"counters,omitempty"`
}

// HostOnlyJSON is one kernel counter change on a host that the run's own
// connections do not show (diagnosis.HostOnly): Text says so in words.
type HostOnlyJSON struct {
	Rule     string              `json:"rule"`
	Title    string              `json:"title"`
	Text     string              `json:"text"`
	Counters []diagnosis.Counter `json:"counters,omitempty"`
}

// millis is d in milliseconds; nil for 0 (none).
func millis(d time.Duration) *float64 {
	if d == 0 {
		return nil
	}
	v := float64(d) / float64(time.Millisecond)
	return &v
}

// repJSON copies repetition rep and its timeline's analysis tl into
// their JSON form.
func repJSON(rep *results.Rep, tl *diagnosis.Repetition) RepJSON {
	t := &rep.Total
	out := RepJSON{Rep: rep.Index + 1, ReqPerSec: t.Rate(), Requests: t.Requests, Errors: t.Errors.Total(), Failed: notes.Failure(rep.Failed).String(), NoTimeline: tl.NoTimeline}
	o := &t.Outside
	out.Warmup = PhaseJSON{Responses: o.Warmup, Status: statusJSON(o.WarmupStatus), Errors: o.WarmupErrorTotal(), ErrorsByClass: o.WarmupClasses}
	out.After = PhaseJSON{Responses: o.Late, Status: statusJSON(o.LateStatus), Errors: o.AfterClasses.Total(), ErrorsByClass: o.AfterClasses, CutOff: o.Abandoned}
	if tl.NoTimeline || rep.Timeline == nil {
		return out
	}
	out.IntervalS, out.RateRange, out.StallsJudged, out.NotJudged = tl.Interval.Seconds(), tl.Range, tl.StallsJudged, tl.Unjudged.Strings()
	out.ListenOverflows = tl.ListenOverflows
	for _, s := range tl.Stalls {
		out.Stalls = append(out.Stalls, StallJSON{StartS: s.Start.Seconds(), EndS: s.End.Seconds(), ReqPerSec: s.Rate})
	}
	for _, p := range rep.Timeline.Points {
		out.Timeline = append(out.Timeline, PointJSON{StartS: p.Start.Seconds(), LengthS: p.Length.Seconds(), Requests: p.Requests,
			Errors: p.Errors.Total(), ErrorsByClass: p.Errors, Started: p.Started,
			HandshakeP50: millis(p.HandshakeP50), HandshakeP99: millis(p.HandshakeP99), TotalP50: millis(p.TotalP50), TotalP99: millis(p.TotalP99),
			ClientBusy: p.ProcessBusy, ClientCPUs: p.CPUsBusy, ServerBusy: p.ServerBusy})
	}
	for i := range tl.Hosts {
		h := &tl.Hosts[i]
		if out.TCP == nil {
			out.TCP = map[string]TCPHostJSON{}
		}
		out.TCP[h.Name] = TCPHostJSON{Client: h.Client, Server: h.Server, Shared: h.Shared, Deltas: h.Values, Unread: h.Unread, NotAvailable: h.Unavailable}
	}
	out.Traffic, out.Listener = tl.Traffic, tl.Listener
	for i := range tl.HostOnly {
		h := &tl.HostOnly[i]
		out.NotAttributable = append(out.NotAttributable, HostOnlyJSON{Rule: h.Rule, Title: h.Title, Text: h.Line(), Counters: h.Counters})
	}
	for _, d := range tl.Diagnoses {
		out.Diagnoses = append(out.Diagnoses, DiagnosisJSON{Rule: d.Rule, Title: d.Title, Cause: d.Cause.String(), Figure: d.Figure,
			Consequence: d.Consequence.String(), Fix: d.Fix.String(), Counters: d.Counters})
	}
	return out
}

// ProbeJSON is one probe over a variant's repetitions
// (analysis.ProbeSummary).
type ProbeJSON struct {
	Name string `json:"name"`
	// N is the repetitions read without error, Failed those whose
	// reading failed, FirstError the first failure's message.
	N          int    `json:"n"`
	Failed     int    `json:"failed,omitempty"`
	FirstError string `json:"first_error,omitempty"`
	// MeanDelta is the mean delta over the good readings; PerRequest
	// their sum over the same repetitions' requests (absent when they
	// completed none).
	MeanDelta  float64  `json:"mean_delta"`
	PerRequest *float64 `json:"per_request,omitempty"`
}

// LatencyJSON holds p50 and p99 of each latency, in milliseconds.
type LatencyJSON struct {
	ConnectP50   *float64 `json:"connect_p50,omitempty"`
	ConnectP99   *float64 `json:"connect_p99,omitempty"`
	HandshakeP50 *float64 `json:"handshake_p50,omitempty"`
	HandshakeP99 *float64 `json:"handshake_p99,omitempty"`
	TTFBP50      *float64 `json:"ttfb_p50,omitempty"`
	TTFBP99      *float64 `json:"ttfb_p99,omitempty"`
	TotalP50     *float64 `json:"total_p50,omitempty"`
	TotalP99     *float64 `json:"total_p99,omitempty"`
	// IntendedP50 and IntendedP99 are from the intended start, in an
	// open loop (Latency.Intended).
	IntendedP50 *float64 `json:"intended_p50,omitempty"`
	IntendedP99 *float64 `json:"intended_p99,omitempty"`
}

func quantileMs(h *results.Histogram, q float64) *float64 {
	if results.EmptyHistogram(h) {
		return nil
	}
	v := float64(h.ValueAtQuantile(q)) / 1000
	return &v
}

// Summarize returns the SummaryJSON of m's run, also for a run whose
// baseline was not measured: fields of m, formatted. The error is m.Err.
func Summarize(m *analysis.Report) (*SummaryJSON, error) {
	if m.Err != nil {
		return nil, m.Err
	}
	r, s := m.Run, m.Summary
	out := &SummaryJSON{Name: r.Name, Started: r.Started, Finished: r.Finished, Interrupted: r.Interrupted,
		Incomplete: r.Incomplete, Failed: m.Failed, NotMeasured: r.NotMeasured, Warnings: m.Warnings, Hints: m.Hints.Strings(), Variants: []VariantJSON{}}
	out.Partial = partialJSON(r, m.Partial.Strings())
	out.Excluded = m.Excluded.Strings()
	out.Thresholds = m.Thresholds
	out.ThresholdsPassed = len(m.Crossed) == 0
	if mr := r.Metrics; mr != nil {
		scraped := mr.End.WasScraped()
		out.Metrics, out.MetricsScraped = m.Metrics.String(), &scraped
	}
	out.Baseline, out.BaselineMeasured, out.NoComparison = s.BaselineName, s.Baseline >= 0, s.NoComparison()
	for i := range s.Variants {
		vs := &s.Variants[i]
		v := VariantJSON{Name: vs.Name, Reps: vs.Stats.N, FailedReps: vs.FailedReps, ReqPerSec: vs.Stats,
			Requests: vs.Requests, Errors: vs.Errors, ErrorShare: vs.ErrorShare, ClientBoundReps: vs.ClientBoundReps,
			OtherLoadReps: vs.OtherLoadReps,
			LatencyMs: LatencyJSON{
				ConnectP50: quantileMs(vs.Connect, 50), ConnectP99: quantileMs(vs.Connect, 99),
				HandshakeP50: quantileMs(vs.Handshake, 50), HandshakeP99: quantileMs(vs.Handshake, 99),
				TTFBP50: quantileMs(vs.TTFB, 50), TTFBP99: quantileMs(vs.TTFB, 99),
				TotalP50: quantileMs(vs.Total, 50), TotalP99: quantileMs(vs.Total, 99),
				IntendedP50: quantileMs(vs.Intended, 50), IntendedP99: quantileMs(vs.Intended, 99),
			},
			Scheduled: vs.Scheduled, Missed: vs.Missed}
		if us, ok := vs.ClientMicrosPerRequest(); ok {
			v.ClientUsPerRequest = &us
		}
		if x, ok := vs.RequestsPerServerCPU(); ok {
			v.ReqPerServerCPUSecond = &x
		}
		if vs.ServerCPUStats.N > 0 {
			st := vs.ServerCPUStats
			v.ServerCPU = &st
			if !vs.IsBaseline {
				c := vs.ServerCPUComparison
				v.ServerCPUComparison = &c
			}
		}
		for _, p := range vs.Probes {
			pj := ProbeJSON{Name: p.Name, N: p.N, Failed: p.Failed, FirstError: p.FirstError, MeanDelta: p.MeanDelta}
			if p.HasPerRequest {
				per := p.PerRequest
				pj.PerRequest = &per
			}
			v.Probes = append(v.Probes, pj)
		}
		v.ServerCPUs = serverVariantJSON(vs)
		if !vs.IsBaseline {
			cmp := vs.Comparison
			v.Comparison = &cmp
			v.Verdict = format.VerdictLine(cmp, vs.VerdictCaveat.String())
		}
		v.Caveat, v.MDESpread, v.ServerInfo = vs.Caveat.String(), vs.MDESpread.String(), r.Variants[i].Info
		v.ServerProfile = profileJSON(m.Profile, i)
		v.Repetitions = []RepJSON{}
		for j := range r.Variants[i].Reps {
			rj := repJSON(&r.Variants[i].Reps[j], &m.Reps[i][j].Timeline)
			serverRepJSON(&rj, &m.Reps[i][j])
			v.Repetitions = append(v.Repetitions, rj)
		}
		out.Variants = append(out.Variants, v)
	}
	out.Search = searchJSON(m.Search)
	out.Speed = speedJSON(m.Speed)
	out.Sweeps = sweepsJSON(s)
	out.Drift = driftJSON(&s.Drift)
	if m.Capacities != nil {
		out.Capacity = &CapacityJSON{Line: m.CapacityLine.String(), Variants: []CapacityVariantJSON{}}
		for _, c := range m.Capacities {
			out.Capacity.Variants = append(out.Capacity.Variants, CapacityVariantJSON{Variant: r.Variants[c.Variant].Name,
				Knee: c.Knee, Fail: c.Fail, BelowFrom: c.BelowFrom, AtMax: c.AtMax, Steps: len(c.Steps)})
		}
	}
	return out, nil
}

// sweepsJSON copies s's sweeps into their JSON form; nil without any.
func sweepsJSON(s *analysis.RunSummary) []SweepJSON {
	var out []SweepJSON
	for k := range s.Sweeps {
		sw := &s.Sweeps[k]
		label := map[int]string{}
		j := SweepJSON{Series: sw.Series, Keys: sw.Keys, Family: sw.Family, Caution: sw.Caution, Verdict: tables.PlateauLine(s, sw)}
		for n, i := range sw.Variants {
			label[i] = sw.Labels[n]
			j.Values = append(j.Values, SweepValueJSON{Value: sw.Labels[n], Variant: s.Variants[i].Name})
		}
		if sw.Top >= 0 {
			j.Top = label[sw.Top]
		}
		if sw.Best >= 0 {
			j.Best = label[sw.Best]
		}
		for _, i := range sw.Plateau {
			j.Plateau = append(j.Plateau, label[i])
		}
		out = append(out, j)
	}
	return out
}

// driftJSON copies the drift d into its JSON form; nil with fewer than
// two rounds.
func driftJSON(d *analysis.DriftSummary) *DriftJSON {
	if d.Rounds < 2 {
		return nil
	}
	out := &DriftJSON{Rounds: d.Rounds, RoundPct: make([]*float64, d.Rounds), Controlled: d.Controlled, OrderUnknown: d.Unknown}
	for r := range d.Rounds {
		if r < len(d.RoundHas) && d.RoundHas[r] {
			pct := d.RoundPct[r]
			out.RoundPct[r] = &pct
		}
	}
	if d.HasTrend {
		t := d.TrendPct
		out.TrendPct = &t
	}
	return out
}

// speedJSON copies the crypto speed table st into its JSON form; nil for
// nil.
func speedJSON(st *analysis.SpeedTable) *SpeedJSON {
	if st == nil {
		return nil
	}
	out := &SpeedJSON{Baseline: st.BaselineName, BaselineMeasured: st.Baseline >= 0, Commands: st.Commands,
		Figures: []SpeedFigureJSON{}}
	for _, f := range st.Failures {
		out.Failures = append(out.Failures, SpeedFailureJSON{Variant: f.Variant, Command: f.Command, CommandLine: f.CommandLine, Error: f.Error})
	}
	for i := range st.Rows {
		row := &st.Rows[i]
		f := SpeedFigureJSON{Command: row.Command, Figure: row.Figure(), Algorithm: row.Algorithm, Operation: row.Operation,
			Block: row.Block, Unit: row.Unit, Values: map[string]float64{}}
		for vi, name := range st.Variants {
			if row.Has[vi] {
				f.Values[name] = row.Values[vi]
			}
			if d, ok := st.Delta(row, vi); ok && vi != st.Baseline {
				if f.DeltaPct == nil {
					f.DeltaPct = map[string]float64{}
				}
				f.DeltaPct[name] = d
			}
		}
		out.Figures = append(out.Figures, f)
	}
	return out
}

// searchJSON copies the search answer ss into its JSON form; nil for nil.
func searchJSON(ss *analysis.SearchSummary) *SearchJSON {
	if ss == nil {
		return nil
	}
	se := ss.Search
	out := &SearchJSON{Series: se.Series, Key: se.Key, Objective: se.Maximize, Windows: ss.Windows, Grid: ss.Grid, Caution: ss.Caution, Lines: ss.Lines()}
	if ss.Best >= 0 {
		b := ss.Points[ss.Best]
		out.Best, out.BestVariant, out.BestScore = b.Value, b.Variant, &b.Stats
	}
	for _, i := range ss.Plateau {
		out.Plateau = append(out.Plateau, ss.Points[i].Value)
	}
	if ss.PlateauLow >= 0 {
		out.PlateauLow = ss.Points[ss.PlateauLow].Value
	}
	for _, p := range ss.Points {
		if p.Untested {
			out.Untested = append(out.Untested, p.Value)
		}
	}
	return out
}

// WriteSummaryJSON writes the SummaryJSON of m (Report.Summarize), indented.
func WriteSummaryJSON(w io.Writer, m *analysis.Report) error {
	s, err := Summarize(m)
	if err != nil {
		return fmt.Errorf("write summary json: %w", err)
	}
	return writeIndentedJSON(w, s)
}
