package render

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
)

// summaryKeys is summary.json's top-level keys in order, and its decoded values.
func summaryKeys(t *testing.T, m *analysis.Report) ([]string, map[string]any) {
	var b bytes.Buffer
	if err := WriteSummaryJSON(&b, m); err != nil {
		t.Fatal(err)
	}
	var vals map[string]any
	if err := json.Unmarshal(b.Bytes(), &vals); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&b)
	var keys []string
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys, vals
}

// TestSummaryJSONOptionalFields pins which of summary.json's optional fields appear, where, and metrics_final_scraped
// false (not absent) when metrics were served and no scrape read the final values.
func TestSummaryJSONOptionalFields(t *testing.T) {
	keys, _ := summaryKeys(t, analysis.Analyze(fixture.CompareRun()))
	for _, k := range []string{"interrupted", "incomplete", "failed", "excluded", "hints", "metrics", "metrics_final_scraped"} {
		if slices.Contains(keys, k) {
			t.Errorf("plain run: summary.json has %q: %q", k, keys)
		}
	}
	r := fixture.CompareRun()
	r.Incomplete, r.Interrupted = true, true
	r.Metrics = &results.Metrics{Addr: "127.0.0.1:9464", End: results.MetricsFinal{Final: time.Unix(0, 0)}}
	r.Variants[1].Reps[0].Failed = &results.Failure{Code: "text", Text: "boom"}
	m := analysis.Analyze(r)
	m.Hints, m.Excluded = append(m.Hints, notes.New("hint")), append(m.Excluded, notes.New("excluded"))
	keys, vals := summaryKeys(t, m)
	want := []string{"name", "started", "finished", "interrupted", "incomplete", "baseline", "baseline_measured",
		"variants", "failed", "excluded", "thresholds_passed", "warnings", "hints", "metrics",
		"metrics_final_scraped", "drift"}
	if !slices.Equal(keys, want) {
		t.Errorf("summary.json keys\n got %q\nwant %q", keys, want)
	}
	if got, ok := vals["metrics_final_scraped"].(bool); !ok || got {
		t.Errorf("metrics_final_scraped = %v, want false", vals["metrics_final_scraped"])
	}
}
