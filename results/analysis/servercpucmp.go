package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
)

// ServerCPURates are v's requests per server CPU-second, one per
// repetition that read a positive server CPU time: what Variant.Rates is
// to Comparison, for ServerCPUComparison.
func ServerCPURates(v *results.Variant) []float64 {
	var out []float64
	for i := range v.Reps {
		rep := &v.Reps[i]
		if rep.ServerCPU != nil && rep.ServerCPU.Seconds > 0 {
			out = append(out, float64(rep.Total.Requests)/rep.ServerCPU.Seconds)
		}
	}
	return out
}

// compareServerCPU fills every variant's ServerCPUStats and
// ServerCPUComparison, in a Holm family of their own: they answer another
// question (what a request costs the server).
func compareServerCPU(r *results.Run, s *RunSummary) {
	rates := make([][]float64, len(r.Variants))
	for i := range r.Variants {
		rates[i] = ServerCPURates(&r.Variants[i])
		s.Variants[i].ServerCPUStats = stats.Summarize(rates[i])
	}
	for i, c := range compareWithBaseline(rates, s.Baseline, s.Equivalence) {
		s.Variants[i].ServerCPUComparison = c
	}
}
