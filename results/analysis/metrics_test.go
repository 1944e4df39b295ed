package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
)

// TestMetricsLine: the line says whether the run's and the windows'
// final values were scraped, and nothing for a run without metrics.
func TestMetricsLine(t *testing.T) {
	at := time.Date(2026, 12, 2, 13, 45, 0, 0, time.UTC)
	scraped := results.MetricsFinal{Final: at, Scraped: at.Add(400 * time.Millisecond)}
	for _, tc := range []struct {
		name string
		m    *results.Metrics
		want []string
	}{
		{"off", nil, nil},
		{"scraped", &results.Metrics{Addr: "127.0.0.1:9464", Scrapes: 9, ScrapeInterval: time.Second,
			Windows: []results.MetricsFinal{{Variant: "a", Final: at, Scraped: at.Add(time.Second)}}, End: scraped},
			[]string{"127.0.0.1:9464: 9 Prometheus scrapes about every 1s", "final values were scraped at 13:45:00.400 (400ms after", "every window's were"}},
		{"not scraped", &results.Metrics{Addr: "127.0.0.1:9464", Linger: time.Second,
			Windows: []results.MetricsFinal{{Variant: "a", Rep: 1, Final: at}}, End: results.MetricsFinal{Final: at}},
			[]string{"0 Prometheus scrapes", "NOT scraped", "linger (1s)", "1 of 1 windows' final values were not scraped (a rep 2)"}},
	} {
		got := Analyze(&results.Run{Metrics: tc.m}).Metrics.String()
		if tc.want == nil && got != "" {
			t.Errorf("%s: got %q, want none", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: got %q, want it to contain %q", tc.name, got, w)
			}
		}
	}
}
