package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

func TestCheckThresholds(t *testing.T) {
	cs := Analyze(fixture.ThresholdRun()).Thresholds
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
			t.Errorf("%s for %s: passed %v (measured %v, %s), want %v", c.Threshold.Expr, c.Variant, c.Passed, c.Measured, c.Shown().String(), w)
		}
		if c.Threshold.Metric == results.MetricVs && (c.Value < 0.49 || c.Value > 0.52) {
			t.Errorf("kae vs baseline = %v, want about +50 %%", c.Value)
		}
	}
	// A variant without repetitions has nothing that shows a threshold
	// holds: crossed, "not measured".
	r := fixture.ThresholdRun()
	r.Variants[1].Reps = nil
	for _, c := range Analyze(r).Thresholds {
		if strings.HasPrefix(c.Variant, "kae") && (c.Passed || c.Measured || c.Shown().String() != "not measured") {
			t.Errorf("%s for %s without repetitions: %+v", c.Threshold.Expr, c.Variant, c)
		}
	}
	if Analyze(fixture.CompareRun()).Thresholds != nil {
		t.Error("a run without thresholds has checks")
	}
}

// TestTimelineThresholds: listen_overflows, stalls and diagnoses are
// CI gates. A run whose window overflowed the accept queue and stalled
// crosses "== 0" with the counts; the same run with the stall and the
// overflow gone passes; a run stored before timelines has nothing that
// shows they hold: crossed, "not measured".
func TestTimelineThresholds(t *testing.T) {
	exprs := []string{"listen_overflows == 0", "stalls == 0", "diagnoses == 0", "diagnoses <= 2"}
	gates := func(r *results.Run) *results.Run {
		for _, expr := range exprs {
			th := results.Threshold{Expr: expr, Op: "==", Metric: map[string]string{"listen_overflows": results.MetricListenOverflows,
				"stalls": results.MetricStalls, "diagnoses": results.MetricDiagnoses}[strings.Fields(expr)[0]]}
			if strings.Contains(expr, "<=") {
				th.Op, th.Value = "<=", 2
			}
			r.Thresholds = append(r.Thresholds, th)
		}
		return r
	}
	clean := fixture.DiagnosedRun()
	tl := clean.Variants[0].Reps[0].Timeline
	delete(tl.Hosts[0].Deltas, "ListenOverflows")
	delete(tl.Hosts[0].Deltas, "ListenDrops")
	tl.Points[5].Requests, tl.Points[6].Requests = 1000, 1000 // 3 s and 4 s
	before := fixture.CompareRun()
	for _, tc := range []struct {
		name     string
		run      *results.Run
		measured bool
		values   []float64 // per threshold
		passed   []bool
	}{
		{"overflow and stall", gates(fixture.DiagnosedRun()), true, []float64{400, 1, 2, 2}, []bool{false, false, false, true}},
		{"clean", gates(clean), true, []float64{0, 0, 0, 0}, []bool{true, true, true, true}},
		{"before timelines", gates(before), false, []float64{0, 0, 0, 0}, []bool{false, false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Analyze(tc.run).Thresholds
			for _, c := range cs {
				j := slices.Index(exprs, c.Threshold.Expr)
				if c.Measured != tc.measured || c.Value != tc.values[j] || c.Passed != tc.passed[j] {
					t.Errorf("%s for %s: measured %v, value %v, passed %v; want %v, %v, %v", c.Threshold.Expr, c.Variant, c.Measured, c.Value, c.Passed, tc.measured, tc.values[j], tc.passed[j])
				}
			}
			if !tc.measured && cs[0].Shown().String() != "not measured" {
				t.Errorf("shown %q, want not measured", cs[0].Shown().String())
			}
		})
	}
}

// TestProbeThresholds: a probe threshold reads the variant's probe
// summary: per request the deltas over the requests, else the mean delta
// per window. A variant whose probe failed in any window is not measured,
// so the threshold is crossed there.
func TestProbeThresholds(t *testing.T) {
	r := fixture.SweepRun()
	r.Thresholds = []results.Threshold{
		{Expr: "probe kae_ops per request >= 0.8", Metric: results.MetricProbePerRequest, Probe: "kae_ops", Op: ">=", Value: 0.8},
		{Expr: "probe kae_ops > 0", Metric: results.MetricProbe, Probe: "kae_ops", Op: ">", Value: 0},
	}
	type want struct {
		measured, passed bool
		shown            string
	}
	wants := map[string]want{
		"probe kae_ops per request >= 0.8/baseline":     {true, false, "0.000 per request"},
		"probe kae_ops per request >= 0.8/kae-soft-0":   {true, true, "1.000 per request"},
		"probe kae_ops per request >= 0.8/kae-soft-10":  {true, true, "0.900 per request"},
		"probe kae_ops per request >= 0.8/kae-soft-100": {true, false, "0.000 per request"},
		"probe kae_ops per request >= 0.8/kae-soft-33":  {false, false, "not measured"}, // one reading failed
		"probe kae_ops > 0/baseline":                    {true, false, "0"},
		"probe kae_ops > 0/kae-soft-0":                  {true, true, "340,133.3"},
		"probe kae_ops > 0/kae-soft-33":                 {false, false, "not measured"},
	}
	for _, c := range Analyze(r).Thresholds {
		w, ok := wants[c.Threshold.Expr+"/"+c.Variant]
		if !ok {
			continue
		}
		if c.Measured != w.measured || c.Passed != w.passed || c.Shown().String() != w.shown {
			t.Errorf("%s for %s: measured %v, passed %v, shown %q; want %v, %v, %q", c.Threshold.Expr, c.Variant, c.Measured, c.Passed, c.Shown().String(), w.measured, w.passed, w.shown)
		}
	}
}
