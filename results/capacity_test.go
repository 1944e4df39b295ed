package results

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// capacityRun is a capacity search of two variants: baseline's knee at
// 40,000/s, kae's at 96,000/s (steps made up, histograms from fixtures).
func capacityRun() *Run {
	steps := func(rates []float64, pass []bool) []Rep {
		var reps []Rep
		for i, r := range rates {
			rep := fixtureRep(i, 6, uint64(r*2))
			rep.Total.Scheduled = uint64(r * 2)
			rep.Total.Latency.Intended = rep.Total.Latency.Total
			phase := "up"
			if i > 0 && rates[i] < rates[i-1] || i > 0 && reps[i-1].Step.Phase == "bisect" || i > 0 && !pass[i-1] {
				phase = "bisect"
			}
			rep.Step = &CapacityStep{Rate: r, Phase: phase, Pass: pass[i]}
			if !pass[i] {
				rep.Step.Why = "p99 handshake 31.2 ms > 20 ms"
			}
			reps = append(reps, rep)
		}
		return reps
	}
	return &Run{
		Name:     "cap",
		Capacity: &CapacitySpec{P99Handshake: 20 * time.Millisecond, MaxErrors: 0.001, MaxMissed: 0.01, From: 10000, Factor: 2, Resolution: 0.05, Max: 1e6},
		Variants: []Variant{
			{Name: "baseline", Reps: steps([]float64{10000, 20000, 40000, 80000, 60000, 50000, 45000, 42000}, []bool{true, true, true, false, false, false, false, false})},
			{Name: "kae", Reps: steps([]float64{10000, 20000, 40000, 80000, 160000, 120000, 100000, 90000, 95000, 96000}, []bool{true, true, true, true, false, false, false, true, true, true})},
			{Name: "slow", Reps: steps([]float64{10000}, []bool{false})},
		},
	}
}

// TestCapacities: the knee of each variant from its steps, the comparison
// line against the baseline, and the limits of a search.
func TestCapacities(t *testing.T) {
	r := capacityRun()
	cs := r.Capacities()
	if len(cs) != 3 {
		t.Fatalf("%d capacities, want 3", len(cs))
	}
	for i, want := range []struct {
		knee, fail float64
		below      bool
	}{{40000, 42000, false}, {96000, 100000, false}, {0, 10000, true}} {
		if c := cs[i]; c.Knee != want.knee || c.Fail != want.fail || c.BelowFrom != want.below || c.AtMax {
			t.Errorf("variant %d: knee %g fail %g below %v at max %v; want %+v", i, c.Knee, c.Fail, c.BelowFrom, c.AtMax, want)
		}
	}
	if got, want := r.CapacityLine(), "capacity under 20 ms p99 handshake: baseline 40,000/s, kae 96,000/s (+140 %), slow < 10,000/s"; got != want {
		t.Errorf("CapacityLine =\n%q\nwant\n%q", got, want)
	}
	if (&Run{}).CapacityLine() != "" || (&Run{}).Capacities() != nil {
		t.Error("a run without a capacity search has a capacity line")
	}
	var b bytes.Buffer
	if err := WriteText(&b, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"== capacity under 20 ms p99 handshake: baseline 40,000/s, kae 96,000/s (+140 %)",
		"-- kae: capacity 96,000/s, 10 steps",
		"FAIL: p99 handshake 31.2 ms > 20 ms",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	if strings.Contains(text, "== comparison") {
		t.Error("text report of a capacity search compares its steps as repetitions")
	}
	b.Reset()
	if err := WriteMarkdown(&b, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if md := b.String(); !strings.Contains(md, "## Capacity") || !strings.Contains(md, "| step | phase | asked/s |") {
		t.Errorf("markdown report lacks the capacity section:\n%s", md)
	}
}
