package results

// Threshold metrics (Threshold.Metric). This is the one home of the
// threshold vocabulary: the scenario compiler parses expressions into a
// Threshold, the plan carries them, and the run stores and checks them.
const (
	// MetricRate is a variant's mean total rate over its repetitions, in
	// requests/s ("req/s >= 100000").
	MetricRate = "req/s"
	// MetricErrors is a variant's failed requests summed over its
	// repetitions ("errors == 0").
	MetricErrors = "errors"
	// MetricErrorShare is the share of a variant's attempts that failed,
	// as a fraction ("errors < 0.1%").
	MetricErrorShare = "error_share"
	// MetricLatency is a percentile of a variant's latency histogram
	// (Latency, Quantile), in microseconds ("p99 handshake < 20ms").
	MetricLatency = "latency"
	// MetricClientBound is 1 when any repetition of a variant had a
	// client-bound group, else 0 ("client_bound == false").
	MetricClientBound = "client_bound"
	// MetricServerSaturated is 1 when no repetition of a variant was NOT
	// SATURATED (neither kaeload nor the server's CPUs busy: the rate
	// measured the connections in flight), else 0
	// ("server_saturated == true"). Not measured when no repetition
	// could be judged (the server's CPU not read, or an open loop).
	MetricServerSaturated = "server_saturated"
	// MetricVs is Variant's mean rate against Against's, as a fraction
	// (0.30 = 30 % faster; "kae vs baseline >= +30%").
	MetricVs = "vs"
	// MetricListenOverflows is the target's listen overflows over a
	// variant's windows, summed over its repetitions: how often its accept
	// queue overflowed ("listen_overflows == 0"): its listener's own drops
	// where they were read, else the server's ListenOverflows where the
	// run's own connections show them (diagnosis.Repetition.ListenOverflows;
	// another listener's overflows count 0). Not measured where the
	// server's counters are not available.
	MetricListenOverflows = "listen_overflows"
	// MetricStalls is the number of stalls (runs of intervals below half
	// the window's median rate) in a variant's windows, summed over its
	// repetitions ("stalls == 0"). Not measured where a window is too
	// short to judge.
	MetricStalls = "stalls"
	// MetricDiagnoses is the number of diagnoses of a variant's windows
	// (accept-queue overflow, SYN queue full, TIME_WAIT overflow, reset
	// storm, stalls, not steady), summed over its repetitions
	// ("diagnoses == 0"). A counter change the run's own connections do
	// not show is no diagnosis (diagnosis.HostOnly).
	MetricDiagnoses = "diagnoses"
	// MetricProbe is a server probe's mean delta per window over a
	// variant's repetitions (Probe names it): "probe hpre_send > 0". Not
	// measured when any of its readings failed, so a probe on a missing
	// file crosses its threshold.
	MetricProbe = "probe"
	// MetricProbePerRequest is a server probe's deltas summed over a
	// variant's repetitions, divided by their requests (Probe names it):
	// "probe hpre_send per request >= 0.9" says that nine handshakes in
	// ten reached the accelerator. Not measured when any reading failed.
	MetricProbePerRequest = "probe_per_request"
)

// Threshold is a resolved pass/fail criterion of a run, checked after it
// for every variant (or, for MetricVs, for one pair of variants): the run
// passes when, for each, "measured Op Value" holds. A crossed threshold
// makes "kaeload run" exit 99. scenarios.ParseThreshold makes one from an
// expression; the plan holds them (plans.Plan.Thresholds) and the run
// stores them as they are (Run.Thresholds).
type Threshold struct {
	// Expr is the expression as written ("p99 handshake < 20ms").
	Expr string `json:"expr"`
	// Metric is one of the Metric constants.
	Metric string `json:"metric"`
	// Latency is connect, handshake, ttfb or total; Quantile 0 < q <= 100
	// (MetricLatency only).
	Latency  string  `json:"latency,omitempty"`
	Quantile float64 `json:"quantile,omitempty"`
	// Op is <, <=, >, >=, == or !=.
	Op string `json:"op"`
	// Value is the bound in the metric's unit: req/s, a count (errors,
	// listen overflows, stalls, diagnoses), a fraction (error share, vs),
	// microseconds (latency), 0 or 1 (client_bound, server_saturated: false
	// or true), the probe's own unit (probe, and per request).
	Value float64 `json:"value"`
	// Variant and Against are the variants a MetricVs compares (Variant
	// against Against), resolved to variant names.
	Variant string `json:"variant,omitempty"`
	Against string `json:"against,omitempty"`
	// Probe names the server probe of MetricProbe and
	// MetricProbePerRequest.
	Probe string `json:"probe,omitempty"`
}
