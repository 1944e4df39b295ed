package measure_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/metrics"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/render"
)

// TestWindowSpreadInEveryOutput: a repetition's window spread reaches
// every output, and one over 1 % of the window is a caution in the
// repetition's facts and in the verdict's line.
func TestWindowSpreadInEveryOutput(t *testing.T) {
	r := fixture.CompareRun()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			r.Variants[i].Reps[j].WindowSpread = &results.WindowSpread{Start: 1500 * time.Microsecond, End: 250 * time.Microsecond}
		}
	}
	kae := &r.Variants[1].Reps[0]
	kae.WindowSpread.Start = kae.Total.Window.Length() / 50 // 2 %
	m := analysis.Analyze(r)
	for _, tc := range []struct {
		name  string
		write func(io.Writer, *analysis.Report) error
		want  []string
	}{
		{"text", render.WriteText, []string{"window start spread ms", "1.500", notes.MisalignedWords}},
		{"markdown", render.WriteMarkdown, []string{"| window end spread ms |", "| 0.250 |", notes.MisalignedWords}},
		{"csv", render.WriteCSV, []string{",window_start_spread_ms,window_end_spread_ms,misaligned,", ",1.500,0.250,false,", ",true,"}},
		{"json", render.WriteSummaryJSON, []string{`"window_spread_ms": {`, `"start": 1.5`, `"misaligned": true`}},
		{"html", htmlreport.Write, []string{">window start spread ms</th>", ">1.500</td>", notes.MisalignedWords}},
		{"openmetrics", metrics.WriteOpenMetrics, []string{"# TYPE kaeload_window_start_spread_ms gauge"}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b, m); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", tc.name, w, b.String())
			}
		}
	}
}
