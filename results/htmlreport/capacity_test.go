package htmlreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// TestCapacityReport: a capacity search gets its section (the comparison
// line, each variant's steps) and a latency-against-rate chart per
// variant with the target and the knee.
func TestCapacityReport(t *testing.T) {
	r := fixtureRun()
	r.Variants = r.Variants[:2]
	r.Capacity = &results.CapacitySpec{P99Handshake: 20 * time.Millisecond, MaxErrors: 0.01, MaxMissed: 0.01, From: 1000, Factor: 2, Resolution: 0.05, Max: 1e6}
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			rep := &r.Variants[i].Reps[j]
			rate := float64(int(1000) << j)
			rep.Step = &results.CapacityStep{Rate: rate, Phase: "up", Pass: j < len(r.Variants[i].Reps)-1}
			rep.Total.Latency.Intended = rep.Total.Latency.Total
		}
	}
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<h2 id="capacity">Capacity</h2>`,
		"capacity under 20 ms p99 handshake: ",
		`id="chart-capacity-0"`, `id="chart-capacity-1"`,
		"knee 1,000/s", // two steps per variant: 1,000/s passed, 2,000/s failed
		"target 20 ms",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "chart not drawn") {
		t.Errorf("a chart was not drawn")
	}
}
