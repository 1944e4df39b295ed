package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

func TestCheckThresholds(t *testing.T) {
	cs := CheckThresholds(fixture.ThresholdRun())
	type key struct{ expr, variant string }
	want := map[key]bool{
		{"req/s >= 150000", "baseline"}: false, {"req/s >= 150000", "kae"}: true,
		{"errors == 0", "baseline"}: true, {"errors == 0", "kae"}: false,
		{"errors < 0.1%", "baseline"}: true, {"errors < 0.1%", "kae"}: true,
		{"p99 handshake < 1s", "baseline"}: true, {"p99 handshake < 1s", "kae"}: true,
		{"p50 connect < 1us", "baseline"}: false, {"p50 connect < 1us", "kae"}: false,
		{"client_bound == false", "baseline"}: true, {"client_bound == false", "kae"}: true,
		{"kae vs baseline >= +30%", "kae vs baseline"}: true,
		{"kae vs baseline >= +60%", "kae vs baseline"}: false,
	}
	if len(cs) != len(want) {
		t.Fatalf("%d checks, want %d: %+v", len(cs), len(want), cs)
	}
	for _, c := range cs {
		w, ok := want[key{c.Threshold.Expr, c.Variant}]
		if !ok || c.Passed != w || !c.Measured {
			t.Errorf("%s for %s: passed %v (measured %v, %s), want %v", c.Threshold.Expr, c.Variant, c.Passed, c.Measured, c.Shown(), w)
		}
		if c.Threshold.Metric == results.MetricVs && (c.Value < 0.49 || c.Value > 0.52) {
			t.Errorf("kae vs baseline = %v, want about +50 %%", c.Value)
		}
	}
	// A variant without repetitions has nothing that shows a threshold
	// holds: crossed, "not measured".
	r := fixture.ThresholdRun()
	r.Variants[1].Reps = nil
	for _, c := range CheckThresholds(r) {
		if strings.HasPrefix(c.Variant, "kae") && (c.Passed || c.Measured || c.Shown() != "not measured") {
			t.Errorf("%s for %s without repetitions: %+v", c.Threshold.Expr, c.Variant, c)
		}
	}
	if CheckThresholds(fixture.CompareRun()) != nil {
		t.Error("a run without thresholds has checks")
	}
}
