package measure_test

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/metrics"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/render"
)

// TestNewMeasureInEveryOutput: a quantity added by one catalogue entry,
// here a test's, reaches every output with no renderer changed (issue 37,
// must show 1).
func TestNewMeasureInEveryOutput(t *testing.T) {
	saved := measure.Catalogue
	t.Cleanup(func() { measure.Catalogue = saved })
	measure.Catalogue = append(slices.Clone(saved), measure.Measure{
		Key: "test_widgets", Unit: "widgets", Label: "test widgets", Show: measure.All,
		Rep:     func(x *measure.Rep) measure.Value { return measure.F3(7000 + float64(x.Rep.Index)) },
		Variant: func(x *measure.Variant) measure.Value { return measure.F3(4242.5) },
	})
	m := analysis.Analyze(fixture.CompareRun())
	for _, tc := range []struct {
		name  string
		write func(io.Writer, *analysis.Report) error
		want  []string
	}{
		{"text", render.WriteText, []string{"test widgets", "4,242.5", "7,001.0"}},
		{"markdown", render.WriteMarkdown, []string{"| test widgets |", "| 4,242.5 |", "| 7,001.0 |"}},
		{"csv", render.WriteCSV, []string{",test_widgets\n", ",all,", ",4242.500\n", ",7001.000\n"}},
		{"json", render.WriteSummaryJSON, []string{`"test_widgets": 4242.5`, `"test_widgets": 7001`}},
		{"html", htmlreport.Write, []string{">test widgets</th>", ">4,242.5</td>", ">7,001.0</td>"}},
		{"openmetrics", metrics.WriteOpenMetrics, []string{"# TYPE kaeload_test_widgets gauge", "# HELP kaeload_test_widgets test widgets (widgets)", `rep="1"} 7001 `}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b, m); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q", tc.name, w)
			}
		}
	}
	// Without the entry, none of it.
	measure.Catalogue = saved
	var b bytes.Buffer
	if err := render.WriteCSV(&b, m); err != nil || strings.Contains(b.String(), "test_widgets") {
		t.Errorf("CSV without the entry: %v, has test_widgets: %v", err, strings.Contains(b.String(), "test_widgets"))
	}
}

// TestWriteReference: the reference lists every measure once, with its
// outputs.
func TestWriteReference(t *testing.T) {
	var b bytes.Buffer
	if err := measure.WriteReference(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if got, want := len(lines), len(measure.Catalogue)+2; got != want {
		t.Errorf("reference has %d lines, want %d", got, want)
	}
	row := "| req_per_s | req_per_s | req/s | req/s | repetition, variant | md csv json html openmetrics |"
	if !strings.Contains(b.String(), row) {
		t.Errorf("reference lacks req_per_s:\n%s", b.String())
	}
}

// TestKeysOncePerOutput: no output reads two measures of one key on the same side, so no table can
// show a column twice (the HTML page's tables take every measure of their output).
func TestKeysOncePerOutput(t *testing.T) {
	for bit := measure.Output(1); bit != 0; bit <<= 1 {
		seen := map[string]bool{}
		for _, me := range measure.Catalogue {
			for side, has := range map[string]bool{"rep": me.Rep != nil, "variant": me.Variant != nil} {
				if k := side + " " + me.Key; me.Show&bit != 0 && has {
					if seen[k] {
						t.Errorf("output %b reads %s twice", bit, k)
					}
					seen[k] = true
				}
			}
		}
	}
}
