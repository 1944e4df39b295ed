package scenarios

import (
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestCompileRate: load.rate is split over the groups by CPU count, per
// group rates add up, and both pass Check.
func TestCompileRate(t *testing.T) {
	h := Host{CPUs: cpus(0, 7)}
	p := mustCompile(t, `
target: {url: "https://127.0.0.1:8443/"}
load:
  rate: 20000
  groups: [{cpus: "0-2"}, {cpus: "3"}]
`, h)
	if got, want := p.Load.Rate, 20000.0; got != want {
		t.Errorf("Load.Rate = %v, want %v", got, want)
	}
	if got, want := []float64{p.Load.Groups[0].Rate, p.Load.Groups[1].Rate}, []float64{15000, 5000}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("group rates %v, want %v (3 CPUs : 1 CPU)", got, want)
	}
	if err := p.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}

	p = mustCompile(t, `
target: {url: "https://127.0.0.1:8443/"}
load:
  groups: [{cpus: "0", rate: 300}, {cpus: "1", rate: 700}]
`, h)
	if got, want := p.Load.Rate, 1000.0; got != want {
		t.Errorf("per-group: Load.Rate = %v, want %v", got, want)
	}
	// SplitRate keeps the given proportions for a new total.
	l := p.Load.SplitRate(2000)
	if l.Groups[0].Rate != 600 || l.Groups[1].Rate != 1400 || p.Load.Groups[0].Rate != 300 {
		t.Errorf("SplitRate(2000) = %v, %v (original %v); want 600, 1400 (original untouched)", l.Groups[0].Rate, l.Groups[1].Rate, p.Load.Groups[0].Rate)
	}
	if err := p.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	// A closed loop stays the default.
	p = mustCompile(t, `target: {url: "https://127.0.0.1:8443/"}`, h)
	if p.Load.Rate != 0 || p.Load.Groups[0].Rate != 0 || p.Load.Capacity != nil {
		t.Errorf("default load: Rate %v, group rate %v, Capacity %v; want a closed loop", p.Load.Rate, p.Load.Groups[0].Rate, p.Load.Capacity)
	}
	bad := *p
	bad.Load.Rate = 100
	if err := bad.Check(); err == nil {
		t.Error("Check of a rate without group rates: no error")
	}
}

// TestCompileCapacity: load.capacity's defaults and StepBound.
func TestCompileCapacity(t *testing.T) {
	p := mustCompile(t, `
target: {url: "https://127.0.0.1:8443/"}
max_errors: 2%
load:
  capacity: {p99_handshake: 20ms}
`, Host{CPUs: cpus(0, 1)})
	want := plans.Capacity{CapacitySpec: results.CapacitySpec{P99Handshake: 20 * time.Millisecond, MaxErrors: 0.02, MaxMissed: plans.MaxMissed, From: 1000, Factor: 2, Max: 1e6, Resolution: 0.05}, Window: 2 * time.Second}
	if p.Load.Capacity == nil || *p.Load.Capacity != want {
		t.Fatalf("Capacity = %+v, want %+v", p.Load.Capacity, want)
	}
	if p.Load.Rate != 0 {
		t.Errorf("Load.Rate = %v, want 0 (the search sets each step's)", p.Load.Rate)
	}
	if err := p.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, tc := range []struct {
		c          plans.Capacity
		up, bisect int
	}{
		{want, 11, 5}, // 1000 … 1,024,000 capped at 1e6; 100 % down to 5 %: 20 → 5 halvings
		{plans.Capacity{CapacitySpec: results.CapacitySpec{From: 1000, Max: 1000, Factor: 2, Resolution: 0.05}}, 1, 5},
		{plans.Capacity{CapacitySpec: results.CapacitySpec{From: 1000, Max: 8000, Factor: 2, Resolution: 0.5}}, 4, 1},
		{plans.Capacity{CapacitySpec: results.CapacitySpec{From: 100, Max: 1e4, Factor: 10, Resolution: 0.05}}, 3, 8}, // 9 / 0.05 = 180 → 8 halvings
	} {
		if up, bisect := tc.c.StepBound(); up != tc.up || bisect != tc.bisect {
			t.Errorf("StepBound(%+v) = %d, %d; want %d, %d", tc.c, up, bisect, tc.up, tc.bisect)
		}
	}
}
