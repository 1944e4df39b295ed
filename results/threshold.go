package results

// Threshold metrics, per variant over its repetitions; a failed probe reading is not measured, so
// it crosses its threshold.
const (
	MetricRate            = "req/s"            // mean total rate
	MetricErrors          = "errors"           // failed requests, summed
	MetricErrorShare      = "error_share"      // failed attempts' share
	MetricLatency         = "latency"          // a percentile, in µs
	MetricClientBound     = "client_bound"     // 1 when a repetition had a client-bound group
	MetricServerSaturated = "server_saturated" // 1 when no judged repetition was NOT SATURATED
	MetricVs              = "vs"               // Variant's mean rate against Against's, as a fraction
	MetricListenOverflows = "listen_overflows" // those the run's own connections show
	MetricStalls          = "stalls"
	MetricDiagnoses       = "diagnoses"
	MetricProbe           = "probe" // mean delta per window
	MetricProbePerRequest = "probe_per_request"
)

// Threshold passes when "measured Op Value" holds (Value in the metric's unit, true is 1); a
// crossed one makes run exit 99.
type Threshold struct {
	Expr     string  `json:"expr"` // as written: "p99 handshake < 20ms"
	Metric   string  `json:"metric"`
	Latency  string  `json:"latency,omitempty"`  // MetricLatency's: connect, handshake, ttfb, total
	Quantile float64 `json:"quantile,omitempty"` // MetricLatency's: (0, 100]
	Op       string  `json:"op"`                 // <, <=, >, >=, == or !=
	Value    float64 `json:"value"`
	Variant  string  `json:"variant,omitempty"` // MetricVs
	Against  string  `json:"against,omitempty"` // MetricVs
	Probe    string  `json:"probe,omitempty"`
}
