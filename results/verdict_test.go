package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCheckRep checks the failure verdict of a repetition at its edges:
// no success at all, errors just below, at and above the limit, and a
// 5xx-only window, which has responses but no success.
func TestCheckRep(t *testing.T) {
	win := Window{Start: t0, End: t0.Add(time.Second)}
	mk := func(requests, status5xx, connectErrs uint64, unanswered Stages) *Group {
		g := &Group{Window: win}
		g.Requests = requests
		for range status5xx {
			g.Errors.Add(ErrStatus, errors.New("status 503"))
		}
		for range connectErrs {
			g.Errors.Add(ErrConnect, errors.New("refused"))
		}
		g.Outside.Unanswered = unanswered
		return g
	}
	for _, tc := range []struct {
		name      string
		g         *Group
		maxErrors float64
		want      string // "" = not failed; else a substring of the reason
	}{
		{"healthy", mk(1000, 0, 0, Stages{}), 0.01, ""},
		{"silent listener", mk(0, 0, 0, Stages{Handshake: 4}), 0.01, "unanswered at the window's end: 4 (connect 0, handshake 4, response 0)"},
		{"nothing at all", mk(0, 0, 0, Stages{}), 0.01, "no request ended at all"},
		{"only 5xx", mk(50, 50, 0, Stages{}), 0.01, "no request succeeded in the window (50 errors)"},
		// 10 errors of 1000 attempts: exactly 1 %, not more than it.
		{"at the limit", mk(990, 0, 10, Stages{}), 0.01, ""},
		{"above the limit", mk(989, 0, 11, Stages{}), 0.01, "errors were 1.1 % of the window's attempts, more than max_errors 1 %"},
		// 5xx responses are errors: 20 of 1000 responses.
		{"5xx above the limit", mk(1000, 20, 0, Stages{}), 0.01, "errors were 2 % of the window's attempts"},
		{"looser limit", mk(900, 0, 100, Stages{}), 0.2, ""},
		{"no error tolerated", mk(999, 0, 1, Stages{}), 0, "errors were 0.1 % of the window's attempts, more than max_errors 0 %"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckRep(tc.g, tc.maxErrors)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("CheckRep = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFailedInEveryRendering checks that a failed repetition is marked in
// the text, Markdown and CSV reports and in the warnings Annotate stores.
func TestFailedInEveryRendering(t *testing.T) {
	r := compareRun()
	rep := &r.Variants[1].Reps[2]
	rep.Total.Outside.Unanswered = Stages{Handshake: 100}
	tw := 11304
	rep.TimeWait = &tw
	rep.Failed = CheckRep(&Group{Window: rep.Total.Window, Counts: Counts{Outside: Outside{Unanswered: Stages{Handshake: 100}}}}, 0.01)
	if rep.Failed == "" {
		t.Fatal("fixture: the repetition should fail")
	}
	if got, want := r.Failed(), []string{"kae"}; len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Failed() = %v, want %v", got, want)
	}

	var text bytes.Buffer
	if err := WriteText(&text, Analyze(r)); err != nil {
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
	if err := WriteMarkdown(&md, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**FAILED:** kae", "FAILED (1 of 3 reps)", "FAILED: no request succeeded"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}

	var c bytes.Buffer
	if err := WriteCSV(&c, Analyze(r)); err != nil {
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

	r.Annotate()
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "variant kae, repetition 3: FAILED") {
		t.Errorf("Annotate did not store the failure: %q", r.Warnings)
	}
}
