package render

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/measure"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// laterRun is compareRun measured again: baseline unchanged within noise,
// kae 2 % slower (clearly), a new variant, and a different plan.
func laterRun() *results.Run {
	r := fixture.CompareRun()
	r.Started = r.Started.Add(7 * 24 * time.Hour)
	r.Variants[0].Reps = []results.Rep{
		fixture.Rep(0, 10, 120100, 120500),
		fixture.Rep(1, 10, 119700, 120900),
		fixture.Rep(2, 10, 120600, 119500),
	}
	r.Variants[1].Reps = []results.Rep{
		fixture.Rep(0, 6, 176400, 177600),
		fixture.Rep(1, 6, 178200, 176800),
		fixture.Measured(fixture.Rep(2, 6, 177100, 178500), []float64{0.91, 0.5}, 3, 1),
	}
	r.Variants = append(r.Variants, results.Variant{Name: "kae-async", Reps: []results.Rep{fixture.Rep(0, 5, 190000, 190000)}})
	r.Plan = json.RawMessage(`{"name": "nginx-kae", "repeat": 3, "groups": [{"cpus": [0, 1, 2, 3]}]}`)
	return r
}

// compareRuns analyses runs (AnalyzeRuns) and writes the comparison.
func compareRuns(w io.Writer, runs []*results.Run, labels []string) error {
	rr, err := analysis.AnalyzeRuns(runs, labels)
	if err != nil {
		return err
	}
	return CompareRuns(w, rr)
}

// mustAnalyzeRuns is AnalyzeRuns, failing t on an error.
func mustAnalyzeRuns(t *testing.T, runs []*results.Run, labels []string) *analysis.RunsReport {
	t.Helper()
	rr, err := analysis.AnalyzeRuns(runs, labels)
	if err != nil {
		t.Fatal(err)
	}
	return rr
}

func TestCompareRunsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := compareRuns(&b, []*results.Run{fixture.CompareRun(), laterRun()}, []string{"last-week", ""}); err != nil {
		t.Fatalf("CompareRuns: %v", err)
	}
	golden(t, filepath.Join("testdata", "compareruns.golden"), b.Bytes())
}

func TestCompareRunsContent(t *testing.T) {
	var b bytes.Buffer
	if err := compareRuns(&b, []*results.Run{fixture.CompareRun(), laterRun()}, []string{"last-week", "this-week"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	row := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("no line starting %q in\n%s", prefix, out)
		return ""
	}
	// kae this week: (354,000 + 355,000 + 355,600) / 3 / 2.001 s = 177,344.7;
	// last week 180,959.4 (one 503 is not a success): -2.00 %.
	kae := row("kae ")
	next := lines[slices.Index(lines, kae)+1]
	for _, want := range []string{"this-week", "177,344.7", "-2.00 %, significant", "CLIENT-BOUND (1 of 3 reps)"} {
		if !strings.Contains(next, want) {
			t.Errorf("kae this-week row lacks %q: %q", want, next)
		}
	}
	if !strings.Contains(kae, "reference") || !strings.Contains(kae, "180,959.4") { // one of its responses was a 503
		t.Errorf("kae reference row = %q", kae)
	}
	// kae-async exists only in the second run.
	async := row("kae-async")
	if strings.Count(async, measure.Absent) != 10 {
		t.Errorf("kae-async is missing from the reference run, want ten %q cells: %q", measure.Absent, async)
	}
	if !strings.Contains(out, "plans: this-week ran a different plan than last-week") {
		t.Errorf("plan difference not reported:\n%s", out)
	}

	// The same run twice: identical plans, zero difference, not significant.
	b.Reset()
	if err := compareRuns(&b, []*results.Run{fixture.CompareRun(), fixture.CompareRun()}, nil); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, "plans: identical") || !strings.Contains(s, "+0.00 %  1.0000  1.0000  no difference larger than ±2 %") {
		t.Errorf("a run compared with itself:\n%s", s)
	}
}

func TestCompareRunsErrors(t *testing.T) {
	var b bytes.Buffer
	if err := compareRuns(&b, nil, nil); err == nil || !strings.Contains(err.Error(), "no runs") {
		t.Errorf("CompareRuns(no runs) = %v, want an error saying no runs", err)
	}
	if err := compareRuns(&b, []*results.Run{fixture.SingleRun(), fixture.SingleRun()}, []string{"a"}); err == nil || !strings.Contains(err.Error(), "1 labels for 2 runs") {
		t.Errorf("CompareRuns(1 label, 2 runs) = %v, want a label count error", err)
	}
	if err := compareRuns(failWriter{}, []*results.Run{fixture.SingleRun()}, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("CompareRuns to a failing writer = %v, want disk full", err)
	}
}

// TestSlowerRuns: kae is significantly 2 % slower in laterRun: a limit of
// 1 % names it, 5 % does not; the baseline (unchanged) never.
func TestSlowerRuns(t *testing.T) {
	runs := []*results.Run{fixture.CompareRun(), laterRun()}
	got := analysis.SlowerRuns(mustAnalyzeRuns(t, runs, []string{"old", "new"}), 1)
	if len(got) != 1 || !strings.HasPrefix(got[0].String(), "kae in new: -2.00 % (p Holm ") {
		t.Errorf("SlowerRuns(1%%) = %q, want kae in new at -2.00 %%", got)
	}
	if got := analysis.SlowerRuns(mustAnalyzeRuns(t, runs, nil), 5); len(got) != 0 {
		t.Errorf("SlowerRuns(5%%) = %q, want none", got)
	}
	// Faster is never slower.
	if got := analysis.SlowerRuns(mustAnalyzeRuns(t, []*results.Run{laterRun(), fixture.CompareRun()}, nil), 0); len(got) != 0 {
		t.Errorf("reversed: %q, want none", got)
	}
}

// TestCompareRunsCapacity: compare shows each capacity search's answer,
// which it used to leave out.
func TestCompareRunsCapacity(t *testing.T) {
	var b bytes.Buffer
	if err := compareRuns(&b, []*results.Run{fixture.CapacityRun(), fixture.CapacityRun()}, []string{"old", "new"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"old: capacity under 20 ms p99 handshake: baseline 40,000/s, kae 96,000/s (+140 %), slow < 10,000/s\n",
		"new: capacity under 20 ms p99 handshake: baseline 40,000/s, kae 96,000/s (+140 %), slow < 10,000/s\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("compare lacks %q:\n%s", want, b.String())
		}
	}
}
