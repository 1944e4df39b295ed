package render

import (
	"bytes"
	"encoding/csv"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestFailedInEveryRendering checks that a failed repetition is marked in
// the text, Markdown and CSV reports and in the warnings Annotate stores.
func TestFailedInEveryRendering(t *testing.T) {
	r := fixture.CompareRun()
	rep := &r.Variants[1].Reps[2]
	rep.Total.Outside.Unanswered = results.Stages{Handshake: 100}
	tw := 11304
	rep.TimeWait = &tw
	rep.Failed = analysis.CheckRep(&results.Group{Window: rep.Total.Window, Counts: results.Counts{Outside: results.Outside{Unanswered: results.Stages{Handshake: 100}}}}, 0.01)
	if rep.Failed == nil {
		t.Fatal("fixture: the repetition should fail")
	}
	if got, want := analysis.Analyze(r).Failed, []string{"kae"}; len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Failed() = %v, want %v", got, want)
	}

	var text bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"FAILED: kae (see below)",
		"variant kae, repetition 3: FAILED: no request succeeded",
		"FAILED (1 of 3 reps)",
		"100 (connect 0, handshake 100, response 0) at the window's end",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**FAILED:** kae", "FAILED (1 of 3 reps)", "FAILED: no request succeeded"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}

	var c bytes.Buffer
	if err := WriteCSV(&c, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col, twCol, unCol := -1, -1, -1
	for i, h := range rows[0] {
		switch h {
		case "failed":
			col = i
		case "client_time_wait":
			twCol = i
		case "unanswered":
			unCol = i
		}
	}
	if twCol < 0 || unCol < 0 {
		t.Fatalf("CSV lacks the unanswered or client_time_wait column: %v", rows[0])
	}
	for _, row := range rows[1:] {
		if row[0] == "kae" && row[2] == "3" && (row[twCol] != "11304" || row[unCol] != "100") {
			t.Errorf("kae rep 3: time_wait %q, unanswered %q, want 11304 and 100", row[twCol], row[unCol])
		}
	}
	if !strings.Contains(text.String(), "11,304 sockets on the client machine after the window") {
		t.Errorf("text report lacks the TIME_WAIT count")
	}
	if col < 0 {
		t.Fatalf("CSV has no failed column: %v", rows[0])
	}
	failedRows := map[string]string{}
	for _, row := range rows[1:] {
		if row[col] != "" {
			failedRows[row[0]+" "+row[2]] = row[col]
		}
	}
	if got, want := len(failedRows), 2; got != want {
		t.Errorf("CSV rows marked failed: %v, want kae 3 and kae all", failedRows)
	}
	if !strings.HasPrefix(failedRows["kae 3"], "no request succeeded") || failedRows["kae all"] != "1 of 3 reps" {
		t.Errorf("CSV failed cells = %v", failedRows)
	}

	analysis.Annotate(r)
	if !strings.Contains(strings.Join(r.Warnings.Strings(), "\n"), "variant kae, repetition 3: FAILED") {
		t.Errorf("Annotate did not store the failure: %q", r.Warnings)
	}
}
