package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// TestThresholdBanner: a crossed threshold shows as an alarm banner that
// lists every check; a run without thresholds has no banner.
func TestThresholdBanner(t *testing.T) {
	r := fixtureRun()
	r.Thresholds = []results.Threshold{
		{Expr: "req/s >= 1e12", Metric: results.MetricRate, Op: ">=", Value: 1e12},
		{Expr: "errors < 100%", Metric: results.MetricErrorShare, Op: "<", Value: 1},
	}
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	n := len(r.Variants)
	for _, want := range []string{`<div class="banner alarm" id="thresholds">THRESHOLD CROSSED: `, "CROSSED  req/s &gt;= 1e12: ", "PASS  errors &lt; 100%: "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if got := strings.Count(b.String(), "<li>CROSSED  req/s"); got != n {
		t.Errorf("%d crossed lines, want one per variant (%d)", got, n)
	}
	b.Reset()
	if err := Write(&b, analysis.Analyze(fixtureRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="thresholds"`) {
		t.Error("a run without thresholds has a thresholds banner")
	}
}
