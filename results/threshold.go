package results

// Threshold metrics (Threshold.Metric), each per variant over its
// repetitions. A probe whose reading failed is not measured, so a probe
// on a missing file crosses its threshold.
const (
	MetricRate       = "req/s"       // mean total rate
	MetricErrors     = "errors"      // failed requests, summed
	MetricErrorShare = "error_share" // failed attempts' share
	MetricLatency    = "latency"     // a percentile, in µs
	// MetricClientBound is 1 when a repetition had a client-bound group.
	MetricClientBound = "client_bound"
	// MetricServerSaturated is 1 when no judged repetition was NOT SATURATED.
	MetricServerSaturated = "server_saturated"
	// MetricVs is Variant's mean rate against Against's, as a fraction.
	MetricVs = "vs"
	// MetricListenOverflows is the overflows the run's own connections show.
	MetricListenOverflows = "listen_overflows"
	MetricStalls          = "stalls"
	MetricDiagnoses       = "diagnoses"
	MetricProbe           = "probe" // mean delta per window
	MetricProbePerRequest = "probe_per_request"
)

// Threshold is a resolved pass/fail criterion: it passes when "measured
// Op Value" holds. A crossed threshold makes "kaeload run" exit 99.
type Threshold struct {
	Expr   string `json:"expr"` // as written: "p99 handshake < 20ms"
	Metric string `json:"metric"`
	// Latency (connect, handshake, ttfb, total) and Quantile (0, 100]
	// are MetricLatency's.
	Latency  string  `json:"latency,omitempty"`
	Quantile float64 `json:"quantile,omitempty"`
	Op       string  `json:"op"` // <, <=, >, >=, == or !=
	// Value is in the metric's unit (false and true are 0 and 1).
	Value   float64 `json:"value"`
	Variant string  `json:"variant,omitempty"` // MetricVs
	Against string  `json:"against,omitempty"` // MetricVs
	Probe   string  `json:"probe,omitempty"`
}
