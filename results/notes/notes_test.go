package notes

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
)

// TestFailureJSON: a failure is stored as a code with its figures, a
// run.json written when it was a sentence still loads, and both read
// back in the same words.
func TestFailureJSON(t *testing.T) {
	for _, tc := range []struct {
		name, stored, code, words string
	}{
		{"code", `{"code":"errors_over_max","share":0.03,"max":0.01}`, results.FailErrors,
			"errors were 3 % of the window's attempts, more than max_errors 1 %"},
		{"no success", `{"code":"no_success","errors":50}`, results.FailNoSuccess, "no request succeeded in the window (50 errors)"},
		{"sentence of an older run", `"no request succeeded in the window (no request ended at all)"`, results.FailText,
			"no request succeeded in the window (no request ended at all)"},
	} {
		var rep results.Rep
		if err := json.Unmarshal([]byte(`{"index":0,"groups":null,"total":{},"failed":`+tc.stored+`}`), &rep); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rep.Failed == nil || rep.Failed.Code != tc.code {
			t.Fatalf("%s: failed %+v, want code %s", tc.name, rep.Failed, tc.code)
		}
		if got := Failure(rep.Failed).String(); got != tc.words {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.words)
		}
		b, _ := json.Marshal(rep.Failed)
		var again results.Failure
		if err := json.Unmarshal(b, &again); err != nil || Failure(&again).String() != tc.words {
			t.Errorf("%s: %s read back as %+v (%v)", tc.name, b, again, err)
		}
	}
	var f results.Failure
	if err := json.Unmarshal([]byte(`{"code":"no_success","why":"x"}`), &f); err == nil {
		t.Error("an unknown field in a failure: no error")
	}
}

// TestNoteJSON: a note is one object, its code and its words beside its
// parameters; the zero note is null.
func TestNoteJSON(t *testing.T) {
	b, err := json.Marshal(New(ErrorsOverMax, "share", 0.03, "max", 0.01))
	if got, want := string(b), `{"code":"errors_over_max","max":0.01,"message":"errors were 3 % of the window's attempts, more than max_errors 1 %","share":0.03}`; err != nil || got != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	if b, _ := json.Marshal(Note{}); string(b) != "null" {
		t.Errorf("the zero note marshals as %s", b)
	}
	if (Note{}).String() != "" || !(Note{}).IsZero() {
		t.Error("the zero note says something")
	}
}

// decidesByText matches production code that tests a note's words: a
// comparison with, or a search for, the start of a message.
var decidesByText = regexp.MustCompile(`(==|!=)\s*"` + starts + `|strings\.(Contains|HasPrefix|HasSuffix|CutPrefix|CutSuffix|TrimPrefix|Index)\([^()]*,\s*"` + starts +
	`|Message\s*(==|!=)\s*"|strings\.(Contains|HasPrefix|HasSuffix|Index)\([^()]*\.(Message|Reason|NoComparison\(\)|Lines\(\)\[\d+\])\s*,`)

// starts are the first words of notes that code could be tempted to test.
const starts = `(FAILED|CLIENT-BOUND|OTHER LOAD|SHARED CPUS|NOT SATURATED|MISSED STARTS|BACKED OFF|stalls: |not steady: |no request succeeded|errors were| was interrupted|` +
	`measured on a busy machine|host [^"]*: the clock offset|profile not available|not profiled|no samples: |no window measured|predicted from both ends|plateau \(|` +
	`[^"]*EADDRNOTAVAIL|after the window the client held|baseline [^"]*no variant is compared)`

// TestNoDecisionByText: no production code decides by a note's words;
// it compares codes (issue 37 must-show 5).
func TestNoDecisionByText(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if decidesByText.MatchString(line) {
				t.Errorf("%s:%d decides by a note's words: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`if line == "FAILED: x" {`, `if strings.HasPrefix(u, "stalls: ") {`, `if w.Message == "x" {`,
		`if strings.Contains(w.Message, "busy") {`, `strings.HasPrefix(v.Reason, "not profiled")`, `if strings.Contains(s, "EADDRNOTAVAIL; run") {`,
		`if l == "no window measured yet" {`, `strings.Contains(ss.Lines()[1], "best")`} {
		if !decidesByText.MatchString(bad) {
			t.Errorf("the pattern misses %s", bad)
		}
	}
}

// TestEveryMessageWithoutArgs: every code has words, and says them
// without a panic when its parameters are missing (a phrase too).
func TestEveryMessageWithoutArgs(t *testing.T) {
	if len(messages) < 30 {
		t.Fatalf("%d messages: the table was not filled", len(messages))
	}
	for code := range messages {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s without parameters: panic %v", code, r)
				}
			}()
			phrase := strings.HasPrefix(string(code), "-") // may say nothing, as "-busiest" of none
			if New(code).String() == "" && !phrase && code != FailedText && code != PlanWarning && code != Flagged && code != Caveats && code != MDESpread {
				t.Errorf("%s says nothing", code)
			}
		}()
	}
}

// TestWarningSame: a warning read back from run.json is the one just
// made (its numbers now float64); another parameter makes another
// warning; an older run's words-only warning matches by its words.
func TestWarningSame(t *testing.T) {
	w := New(QuietTimedOut, "label", "variant a rep 1/3", "waited", 30*time.Second, "others", 0.25, "max_other", 0.05, "pid", 42).Warning()
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back, old results.Warning
	if err := json.Unmarshal(b, &back); err != nil || back.Args["pid"] != 42.0 {
		t.Fatalf("read back %+v (%v)", back, err)
	}
	other := New(QuietTimedOut, "label", "variant a rep 2/3", "waited", 30*time.Second, "others", 0.25, "max_other", 0.05, "pid", 42).Warning()
	if err := json.Unmarshal([]byte(strconv.Quote(w.Message)), &old); err != nil {
		t.Fatal(err)
	}
	ws := results.Warnings{back}
	if !ws.Has(w) || ws.Has(other) || !(results.Warnings{old}).Has(w) || len(ws.AppendNew(w, other)) != 2 {
		t.Errorf("%s: has %v, has another %v, an older run's has %v", b, ws.Has(w), ws.Has(other), (results.Warnings{old}).Has(w))
	}
}

// TestThresholdFigureUnits words every results.Metric* figure in its unit: the template compares the
// metric names as strings, so a renamed constant fails here rather than falling through to a number.
func TestThresholdFigureUnits(t *testing.T) {
	for _, tc := range []struct {
		metric string
		value  float64
		want   string
	}{
		{results.MetricRate, 12345.6, "12,345.6 req/s"},
		{results.MetricErrors, 3, "3"},
		{results.MetricErrorShare, 0.0123, "1.23 %"},
		{results.MetricLatency, 1500, "1.500 ms"},
		{results.MetricClientBound, 1, "true"},
		{results.MetricServerSaturated, 0, "false"},
		{results.MetricVs, 0.05, "+5.00 %"},
		{results.MetricListenOverflows, 7, "7"},
		{results.MetricStalls, 2, "2"},
		{results.MetricDiagnoses, 1, "1"},
		{results.MetricProbe, 4, "4"},
		{results.MetricProbePerRequest, 0.5, "0.500 per request"},
	} {
		n := New(ThresholdFigure, "metric", tc.metric, "value", tc.value, "measured", true)
		if got := n.String(); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.metric, tc.value, got, tc.want)
		}
	}
	if got := New(ThresholdFigure, "metric", results.MetricRate, "value", 0.0, "measured", false).String(); got != "not measured" {
		t.Errorf("not measured: %q", got)
	}
}
