package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/results/tables"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// withoutBaseline returns r as a journal shows it before the baseline's
// first window: the baseline variant left out, still going.
func withoutBaseline(r *results.Run) *results.Run {
	base, name := r.BaselineVariant()
	r.Baseline = name
	r.Variants = slices.Delete(r.Variants, base, base+1)
	r.Incomplete = true
	return r
}

// TestBaselineNotMeasured: a run whose baseline has no repetition yet (a
// randomized order that drew another variant first, an interrupt before
// the baseline's window) is summarized and rendered by every format: each
// shows the variants measured, names the baseline as not measured yet,
// and compares nothing — no Δ %, no p, no verdict other than that.
func TestBaselineNotMeasured(t *testing.T) {
	r := withoutBaseline(fixture.SweepRun())
	s := analysis.Analyze(r).Summary
	if s.Baseline != -1 || s.BaselineName != "baseline" || s.BaselineMissing.String() != "not measured yet" || s.Family != 0 {
		t.Errorf("summary: Baseline %d, name %q, missing %q, family %d; want -1, baseline, not measured yet, 0",
			s.Baseline, s.BaselineName, s.BaselineMissing, s.Family)
	}
	for _, v := range s.Variants {
		if c := v.Comparison; c.Test != stats.TestNoBaseline || c.Significant || c.HasMDE || c.Tested() {
			t.Errorf("%s: comparison %+v, want TestNoBaseline and nothing else", v.Name, c)
		}
		if v.IsBaseline || v.Stats.N != 3 {
			t.Errorf("%s: baseline %v, n %d; want false, 3", v.Name, v.IsBaseline, v.Stats.N)
		}
	}
	if len(s.Sweeps) != 1 || s.Sweeps[0].Best < 0 {
		t.Errorf("the sweep is still judged within itself: %+v", s.Sweeps)
	}
	const want = `baseline "baseline" not measured yet: no variant is compared with it`
	if got := s.NoComparison().String(); got != want {
		t.Errorf("NoComparison = %q, want %q", got, want)
	}
	ended := *r
	ended.Incomplete = false
	if s := analysis.Analyze(&ended).Summary; s.BaselineLine() != "baseline (not measured)" {
		t.Errorf("a run that ended without its baseline: %q, want \"baseline (not measured)\"", s.BaselineLine())
	}

	var text bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteText: %v", err)
	}
	out := text.String()
	for _, w := range []string{"baseline  baseline (not measured yet)\n", "INCOMPLETE:", want + "\n",
		"== variant kae-soft-33", "no comparison: baseline not measured", "sweep kae-soft-{ratio}"} {
		if !strings.Contains(out, w) {
			t.Errorf("text report lacks %q:\n%s", w, out)
		}
	}
	// Its table row and the verdict below the table.
	row := strings.Join(regexp.MustCompile(`(?m)^kae-soft-33 .*$`).FindAllString(out, -1), "\n")
	if !strings.Contains(row, "no comparison") || regexp.MustCompile(`[+-][0-9.]+ %`).MatchString(row) {
		t.Errorf("text comparison row claims a difference: %q", row)
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteMarkdown: %v", err)
	}
	for _, w := range []string{"**baseline** baseline (not measured yet)", "baseline \"baseline\" not measured yet: no variant is compared with it", "no comparison: baseline not measured"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("Markdown report lacks %q:\n%s", w, md.String())
		}
	}

	var cb bytes.Buffer
	if err := WriteCSV(&cb, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteCSV: %v", err)
	}
	rows, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	alls := 0
	for _, row := range rows[1:] {
		if row[col["rep"]] != "all" {
			continue
		}
		alls++
		if row[col["test"]] != stats.TestNoBaseline || row[col["delta_pct"]] != "" || row[col["p_value"]] != "" || row[col["p_adjusted"]] != "" {
			t.Errorf("CSV row of %s: test %q, delta %q, p %q, p adjusted %q; want %q and empty cells",
				row[0], row[col["test"]], row[col["delta_pct"]], row[col["p_value"]], row[col["p_adjusted"]], stats.TestNoBaseline)
		}
	}
	if alls != 4 {
		t.Errorf("CSV has %d variant rows, want the 4 measured", alls)
	}

	var js bytes.Buffer
	if err := WriteSummaryJSON(&js, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteSummaryJSON: %v", err)
	}
	var sj summaryBack
	if err := json.Unmarshal(js.Bytes(), &sj); err != nil {
		t.Fatal(err)
	}
	if sj.Baseline != "baseline" || sj.BaselineMeasured || sj.NoComparison != want || len(sj.Variants) != 4 {
		t.Errorf("summary JSON: baseline %q measured %v, no_comparison %q, %d variants", sj.Baseline, sj.BaselineMeasured, sj.NoComparison, len(sj.Variants))
	}
	for _, v := range sj.Variants {
		if got := v["comparison"].(map[string]any)["test"]; got != stats.TestNoBaseline {
			t.Errorf("summary JSON %s: comparison test %v, want %q", v["name"], got, stats.TestNoBaseline)
		}
	}

	// A later run compared with one that lacks a variant still renders.
	var cmp bytes.Buffer
	if err := compareRuns(&cmp, []*results.Run{fixture.SweepRun(), r}, nil); err != nil {
		t.Fatalf("CompareRuns: %v", err)
	}
	if !strings.Contains(cmp.String(), "kae-soft-33") {
		t.Errorf("compare lacks the measured variants:\n%s", cmp.String())
	}

	// Speed runs: the figures without Δ %.
	sr := withoutBaseline(fixture.SpeedRun())
	st := analysis.Analyze(sr).Speed
	if st == nil || st.Baseline != -1 || st.BaselineName != "baseline" {
		t.Fatalf("Speed = %+v; want baseline -1 named baseline", st)
	}
	if h := tables.Speed(st).Header; slices.ContainsFunc(h, func(c string) bool { return strings.HasPrefix(c, "Δ%") }) {
		t.Errorf("speed header without a baseline has Δ columns: %q", h)
	}
	text.Reset()
	if err := WriteText(&text, analysis.Analyze(sr)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "the baseline was not measured: no Δ %") {
		t.Errorf("speed section does not say why it has no Δ %%:\n%s", text.String())
	}
	md.Reset()
	if err := WriteMarkdown(&md, analysis.Analyze(sr)); err != nil {
		t.Fatal(err)
	}
}

// TestNoVariantsRender: a run that measured nothing (interrupted in its
// first window) renders in every format and says so.
func TestNoVariantsRender(t *testing.T) {
	r := &results.Run{SchemaVersion: results.SchemaVersion, Name: "x", Baseline: "b", Interrupted: true}
	var b bytes.Buffer
	for name, write := range map[string]func() error{
		"text": func() error { return WriteText(&b, analysis.Analyze(r)) }, "md": func() error { return WriteMarkdown(&b, analysis.Analyze(r)) },
		"csv": func() error { return WriteCSV(&b, analysis.Analyze(r)) }, "json": func() error { return WriteSummaryJSON(&b, analysis.Analyze(r)) },
	} {
		b.Reset()
		if err := write(); err != nil || b.Len() == 0 {
			t.Errorf("%s of a run without variants: %v, %d bytes", name, err, b.Len())
		}
	}
	b.Reset()
	_ = WriteMarkdown(&b, analysis.Analyze(r))
	if !strings.Contains(b.String(), "No variant was measured.") {
		t.Errorf("Markdown of a run without variants:\n%s", b.String())
	}
}

// summaryBack is summary.json read back by a test, its objects as maps.
type summaryBack struct {
	Baseline         string           `json:"baseline"`
	BaselineMeasured bool             `json:"baseline_measured"`
	NoComparison     string           `json:"no_comparison"`
	Warnings         []string         `json:"warnings"`
	Variants         []map[string]any `json:"variants"`
}
