package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"slices"
	"strings"
	"testing"
)

// nocertReason is the one-line reason NotMeasuredRun stores for nocert, whose nginx did not start.
var nocertReason = fixture.NotMeasuredRun().NotMeasured[0].Reason

// TestNotMeasuredEveryOutput: a variant the run gave up on is named, with
// its reason, in the text, Markdown, CSV and JSON summary; one given up on
// after some repetitions says after how many.
func TestNotMeasuredEveryOutput(t *testing.T) {
	r := fixture.NotMeasuredRun()
	lines := []string{
		"variant nocert: " + nocertReason,
		"variant kae after 3 repetitions: server start failed: exit status 1",
	}
	if got := analysis.Analyze(r).NotMeasured.Strings(); !slices.Equal(got, lines) {
		t.Errorf("Report.NotMeasured\n got %q\nwant %q", got, lines)
	}

	var text, md bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if want := "\nNOT MEASURED: " + l + "\n"; !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
		if want := "**NOT MEASURED:** " + mdEscape(l); !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q:\n%s", want, md.String())
		}
	}

	var b bytes.Buffer
	if err := WriteCSV(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	failed, rep, requests := col("failed"), col("rep"), col("requests")
	var got []string
	for _, row := range rows[1:] {
		if row[rep] == "all" {
			got = append(got, row[0]+": "+row[failed])
		}
		if row[0] == "nocert" {
			for i, c := range row {
				if c != "" && i != 0 && i != rep && i != failed {
					t.Errorf("nocert's row has %s = %q, want empty (nothing was measured)", rows[0][i], c)
				}
			}
			if row[requests] != "" {
				t.Errorf("nocert requests = %q, want empty", row[requests])
			}
		}
	}
	want := []string{"baseline: ", "kae: not measured: server start failed: exit status 1", "nocert: not measured: " + nocertReason}
	if !slices.Equal(got, want) {
		t.Errorf("CSV \"all\" rows' failed cells\n got %q\nwant %q", got, want)
	}

	var js bytes.Buffer
	if err := WriteSummaryJSON(&js, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		NotMeasured []results.NotMeasured `json:"not_measured"`
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(decoded.NotMeasured, r.NotMeasured) {
		t.Errorf("JSON summary not_measured = %+v, want %+v", decoded.NotMeasured, r.NotMeasured)
	}

	// Nothing given up on: no such line anywhere.
	text.Reset()
	if err := WriteText(&text, analysis.Analyze(fixture.CompareRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "NOT MEASURED") {
		t.Errorf("a run without NotMeasured says NOT MEASURED:\n%s", text.String())
	}
}

// TestBackoffReported: a repetition whose slots backed off says so, with
// the count, in its text section and among the warnings every report
// shows; one without back-offs says nothing.
func TestBackoffReported(t *testing.T) {
	r := fixture.SingleRun()
	t.Run("none", func(t *testing.T) {
		if ws := analysis.Analyze(r).Warnings; slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, "BACKED OFF") }) {
			t.Errorf("warnings %q mention backing off, want not", ws)
		}
	})
	tot := &r.Variants[0].Reps[0].Total
	tot.Backoffs = 1234
	tot.Errors[results.ErrConnect].Count = 5678
	want := "BACKED OFF: connection slots waited 1,234 times before their next try because their connects kept failing (5,678 connect errors, counted as usual)"
	var text, md bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if section := text.String()[strings.Index(text.String(), "-- default, repetition 1"):]; !strings.Contains(section, "\n"+want) {
		t.Errorf("repetition section lacks %q:\n%s", want, section)
	}
	if ws := analysis.Analyze(r).Warnings; !slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, "variant default, repetition 1: "+want) }) {
		t.Errorf("warnings %q lack the back-off line", ws)
	}
	if !strings.Contains(md.String(), "**WARNING:** variant default, repetition 1: BACKED OFF") {
		t.Errorf("Markdown lacks the back-off warning:\n%s", md.String())
	}
	analysis.Annotate(r)
	if !slices.ContainsFunc(r.Warnings.Strings(), func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("Annotate did not store the back-off warning in run.json's warnings: %q", r.Warnings)
	}
}

// TestNotMeasuredBaseline: when the variant that did not start is the
// baseline, every output still renders and names it.
func TestNotMeasuredBaseline(t *testing.T) {
	r := fixture.NotMeasuredRun()
	r.Baseline = "nocert"
	r.NotMeasured = r.NotMeasured[:1]
	line := "variant nocert: " + nocertReason
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *results.Run) error
		want  string
	}{
		{"text", func(b *bytes.Buffer, r *results.Run) error { return WriteText(b, analysis.Analyze(r)) }, "NOT MEASURED: " + line},
		{"markdown", func(b *bytes.Buffer, r *results.Run) error { return WriteMarkdown(b, analysis.Analyze(r)) }, "**NOT MEASURED:** " + mdEscape(line)},
		{"csv", func(b *bytes.Buffer, r *results.Run) error { return WriteCSV(b, analysis.Analyze(r)) }, `"not measured: ` + strings.ReplaceAll(nocertReason, `"`, `""`) + `"`},
		{"json", func(b *bytes.Buffer, r *results.Run) error { return WriteSummaryJSON(b, analysis.Analyze(r)) }, `"reason": "` + strings.ReplaceAll(nocertReason, `"`, `\"`) + `"`},
	} {
		var b bytes.Buffer
		if err := tc.write(&b, r); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s lacks %q:\n%s", tc.name, tc.want, b.String())
		}
	}
}
