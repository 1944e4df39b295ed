package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestCapacities: the knee of each variant from its steps, the comparison
// line against the baseline, and the limits of a search.
func TestCapacities(t *testing.T) {
	r := fixture.CapacityRun()
	cs := analysis.Analyze(r).Capacities
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
	if got, want := analysis.Analyze(r).CapacityLine.String(), "capacity under 20 ms p99 handshake: baseline 40,000/s, kae 96,000/s (+140 %), slow < 10,000/s"; got != want {
		t.Errorf("CapacityLine =\n%q\nwant\n%q", got, want)
	}
	if !analysis.Analyze(&results.Run{}).CapacityLine.IsZero() || analysis.Analyze(&results.Run{}).Capacities != nil {
		t.Error("a run without a capacity search has a capacity line")
	}
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(r)); err != nil {
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
	if err := WriteMarkdown(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if md := b.String(); !strings.Contains(md, "## Capacity") || !strings.Contains(md, "| step | phase | asked/s |") {
		t.Errorf("markdown report lacks the capacity section:\n%s", md)
	}
}
