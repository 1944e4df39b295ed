package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
)

// ServerCPURates returns, for each repetition of v whose server CPU was
// read with a positive time, its requests per server CPU-second: the
// window's requests over the server CPU seconds of that repetition, in
// repetition order. It is to ServerCPUComparison what Variant.Rates is to
// Comparison.
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
// ServerCPUComparison: requests per server CPU-second compared as req/s
// are (CompareFamily), in a Holm family of their own, since they answer
// another question (what a request costs the server).
func compareServerCPU(r *results.Run, s *RunSummary) {
	rates := make([][]float64, len(r.Variants))
	for i := range r.Variants {
		rates[i] = ServerCPURates(&r.Variants[i])
		s.Variants[i].ServerCPUStats = stats.Summarize(rates[i])
	}
	base := s.Baseline
	if base < 0 {
		for i := range s.Variants {
			s.Variants[i].ServerCPUComparison = stats.Comparison{PValue: 1, PAdjusted: 1, Test: stats.TestNoBaseline}
		}
		return
	}
	others := make([][]float64, len(rates))
	for i := range rates {
		if i != base {
			others[i] = rates[i]
		}
	}
	comps := stats.CompareFamily(rates[base], others, s.Equivalence)
	for i := range s.Variants {
		if i != base {
			s.Variants[i].ServerCPUComparison = comps[i]
		}
	}
}
