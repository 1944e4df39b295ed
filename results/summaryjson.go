package results

import (
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"io"
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
	NotMeasured []NotMeasured `json:"not_measured,omitempty"`
	// Thresholds are the threshold checks (CheckThresholds), and
	// ThresholdsPassed whether every one passed (true without any).
	Thresholds       []ThresholdCheck `json:"thresholds,omitempty"`
	ThresholdsPassed bool             `json:"thresholds_passed"`
	// Warnings are every warning the reports show (Run.AllWarnings).
	Warnings []string `json:"warnings,omitempty"`
	// Hints are the reports' hint lines (Run.Hints).
	Hints []string `json:"hints,omitempty"`
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
	// OtherLoadReps counts the repetitions in which other processes took
	// a large share of a group's CPUs (VariantSummary.OtherLoadReps); the
	// warnings name them.
	OtherLoadReps int         `json:"other_load_reps,omitempty"`
	LatencyMs     LatencyJSON `json:"latency_ms"`
	// ClientUsPerRequest is the client's CPU µs per request
	// (VariantSummary.ClientMicrosPerRequest); absent when not measured.
	ClientUsPerRequest *float64 `json:"client_us_per_request,omitempty"`
	// Comparison is against the baseline; nil for the baseline itself.
	Comparison *stats.Comparison `json:"comparison,omitempty"`
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
}

func quantileMs(h *Histogram, q float64) *float64 {
	if empty(h) {
		return nil
	}
	v := float64(h.ValueAtQuantile(q)) / 1000
	return &v
}

// Summarize returns r's SummaryJSON, also for a run whose baseline was
// not measured. The error is nil.
func (r *Run) Summarize() (*SummaryJSON, error) {
	out := &SummaryJSON{Name: r.Name, Started: r.Started, Finished: r.Finished, Interrupted: r.Interrupted,
		Incomplete: r.Incomplete, Failed: r.Failed(), NotMeasured: r.NotMeasured, Warnings: r.AllWarnings(), Hints: r.Hints(), Variants: []VariantJSON{}}
	out.Thresholds = CheckThresholds(r)
	out.ThresholdsPassed = len(Crossed(out.Thresholds)) == 0
	s, err := SummarizeRun(r)
	if err != nil {
		return nil, err
	}
	out.Baseline, out.BaselineMeasured, out.NoComparison = s.BaselineName, s.Baseline >= 0, s.NoComparison()
	for i := range s.Variants {
		vs := &s.Variants[i]
		var c Counts
		for j := range r.Variants[i].Reps {
			c.Add(&r.Variants[i].Reps[j].Total.Counts)
		}
		v := VariantJSON{Name: vs.Name, Reps: vs.Stats.N, FailedReps: vs.FailedReps, ReqPerSec: vs.Stats,
			Requests: vs.Requests, Errors: vs.Errors, ErrorShare: c.ErrorShare(), ClientBoundReps: vs.ClientBoundReps,
			OtherLoadReps: vs.OtherLoadReps,
			LatencyMs: LatencyJSON{
				ConnectP50: quantileMs(vs.Connect, 50), ConnectP99: quantileMs(vs.Connect, 99),
				HandshakeP50: quantileMs(vs.Handshake, 50), HandshakeP99: quantileMs(vs.Handshake, 99),
				TTFBP50: quantileMs(vs.TTFB, 50), TTFBP99: quantileMs(vs.TTFB, 99),
				TotalP50: quantileMs(vs.Total, 50), TotalP99: quantileMs(vs.Total, 99),
			}}
		if us, ok := vs.ClientMicrosPerRequest(); ok {
			v.ClientUsPerRequest = &us
		}
		if !vs.IsBaseline {
			cmp := vs.Comparison
			v.Comparison = &cmp
		}
		out.Variants = append(out.Variants, v)
	}
	return out, nil
}

// WriteSummaryJSON writes r's SummaryJSON, indented.
func WriteSummaryJSON(w io.Writer, r *Run) error {
	s, err := r.Summarize()
	if err != nil {
		return fmt.Errorf("write summary json: %w", err)
	}
	return writeIndentedJSON(w, s)
}
