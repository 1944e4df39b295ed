package analysis

import (
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
)

// serverCPURun is a baseline and two variants, each of three repetitions
// of the same requests, whose server CPU seconds per repetition are
// given: the variants differ only in what a request cost the server.
func serverCPURun(seconds ...[3]float64) *results.Run {
	busy := []float64{0.5, 0.5}
	requests := [3][2]uint64{{120000, 120600}, {119500, 121100}, {120900, 119300}}
	r := &results.Run{SchemaVersion: results.SchemaVersion, Name: "server-cpu", Started: fixture.T0, Baseline: "baseline"}
	for i, secs := range seconds {
		v := results.Variant{Name: []string{"baseline", "same", "offload"}[i]}
		for j, s := range secs {
			v.Reps = append(v.Reps, fixture.Measured(fixture.Rep(j, 10, requests[j][0], requests[j][1]), busy, s, 0, ""))
		}
		r.Variants = append(r.Variants, v)
	}
	return r
}

// TestServerCPUComparison: requests per server CPU-second are compared
// with the baseline's like req/s, per repetition. A variant that cost
// the server what the baseline did (an A/A: the same repetitions) is not
// called different; one that cost half (an offload, 2× the requests per
// server CPU-second at the same req/s) is, though its req/s is the
// baseline's; the two are a family of their own (Family 2), apart from
// req/s's.
func TestServerCPUComparison(t *testing.T) {
	base := [3]float64{3.9, 4.02, 3.95}
	half := [3]float64{1.96, 2.0, 1.97}
	s, err := SummarizeRun(serverCPURun(base, base, half))
	if err != nil {
		t.Fatal(err)
	}
	same, offload := s.Variants[1], s.Variants[2]
	if c := same.ServerCPUComparison; c.Significant || c.DeltaPct != 0 || !c.Tested() || c.Family != 2 {
		t.Errorf("A/A: %+v, want tested, Δ 0, not significant, family 2", c)
	}
	c := offload.ServerCPUComparison
	if !c.Significant || !fixture.Near(c.DeltaPct, 100, 0.01) || c.Family != 2 || c.Test != stats.TestStudentLog {
		t.Errorf("half the server CPU: %+v, want about +100 %%, significant, family 2, %q", c, stats.TestStudentLog)
	}
	if offload.Comparison.Significant {
		t.Errorf("req/s of identical repetitions: %+v, want not significant", offload.Comparison)
	}
	st := offload.ServerCPUStats
	if want := stats.Summarize(ServerCPURates(&serverCPURun(base, base, half).Variants[2])); st != want || st.N != 3 || !st.HasCI || !(st.CI95Low < 2*60900 && 2*60900 < st.CI95High*1.01) {
		t.Errorf("ServerCPUStats %+v, want %+v, n 3 with a CI near 2 × 60,900", st, want)
	}
	if s.Variants[0].ServerCPUComparison.Test != "" {
		t.Errorf("the baseline: %+v, want the zero Comparison", s.Variants[0].ServerCPUComparison)
	}
}

// TestServerCPUComparisonMissing: without server CPU readings nothing is
// compared (TestNone), and without a measured baseline every variant says
// so (TestNoBaseline), as req/s's comparisons do.
func TestServerCPUComparisonMissing(t *testing.T) {
	r := serverCPURun([3]float64{3.9, 4.02, 3.95}, [3]float64{1.96, 2.0, 1.97})
	for i := range r.Variants[0].Reps {
		r.Variants[0].Reps[i].ServerCPU = nil
	}
	s, _ := SummarizeRun(r)
	if c := s.Variants[1].ServerCPUComparison; c.Test != stats.TestNone || c.Significant || s.Variants[0].ServerCPUStats.N != 0 {
		t.Errorf("baseline without readings: %+v (baseline n %d), want %q", c, s.Variants[0].ServerCPUStats.N, stats.TestNone)
	}
	r.Baseline = "nonesuch"
	s, _ = SummarizeRun(r)
	if c := s.Variants[1].ServerCPUComparison; c.Test != stats.TestNoBaseline {
		t.Errorf("no baseline: %+v, want %q", c, stats.TestNoBaseline)
	}
}
