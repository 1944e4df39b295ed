package results

// Threshold metrics (Threshold.Metric), the one home of the threshold
// vocabulary: scenarios parse expressions into a Threshold, the plan
// carries them, the run stores and checks them. Each is per variant,
// over its repetitions.
const (
	// MetricRate is the mean total rate, in req/s ("req/s >= 100000").
	MetricRate = "req/s"
	// MetricErrors is the failed requests, summed ("errors == 0").
	MetricErrors = "errors"
	// MetricErrorShare is the failed attempts' share ("errors < 0.1%").
	MetricErrorShare = "error_share"
	// MetricLatency is a percentile of the latency histogram, in
	// microseconds ("p99 handshake < 20ms").
	MetricLatency = "latency"
	// MetricClientBound is 1 when a repetition had a client-bound group
	// ("client_bound == false").
	MetricClientBound = "client_bound"
	// MetricServerSaturated is 1 when no judged repetition was NOT
	// SATURATED ("server_saturated == true"); not measured when none
	// could be judged.
	MetricServerSaturated = "server_saturated"
	// MetricVs is Variant's mean rate against Against's, as a fraction
	// ("kae vs baseline >= +30%").
	MetricVs = "vs"
	// MetricListenOverflows is the target's listen overflows the run's
	// own connections show, summed (diagnosis.Repetition.ListenOverflows;
	// "listen_overflows == 0"); not measured without the counters.
	MetricListenOverflows = "listen_overflows"
	// MetricStalls is the stalls, summed ("stalls == 0"); not measured
	// where a window is too short to judge.
	MetricStalls = "stalls"
	// MetricDiagnoses is the diagnoses, summed ("diagnoses == 0"); a
	// counter change the run's connections do not show is none.
	MetricDiagnoses = "diagnoses"
	// MetricProbe is a server probe's mean delta per window ("probe
	// hpre_send > 0"); not measured when a reading failed, so a probe on
	// a missing file crosses its threshold.
	MetricProbe = "probe"
	// MetricProbePerRequest is a probe's deltas over the requests
	// ("probe hpre_send per request >= 0.9"); not measured when a reading
	// failed.
	MetricProbePerRequest = "probe_per_request"
)

// Threshold is a resolved pass/fail criterion, checked after the run for
// every variant (MetricVs: one pair): it passes when "measured Op Value"
// holds. A crossed threshold makes "kaeload run" exit 99.
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
	// Value is the bound in the metric's unit: req/s, a count, a
	// fraction, microseconds, 0 or 1 (false or true), the probe's unit.
	Value float64 `json:"value"`
	// Variant and Against are the variants a MetricVs compares.
	Variant string `json:"variant,omitempty"`
	Against string `json:"against,omitempty"`
	// Probe names the server probe of MetricProbe and
	// MetricProbePerRequest.
	Probe string `json:"probe,omitempty"`
}
