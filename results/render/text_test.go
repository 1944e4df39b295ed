package render

import (
	"bytes"
	"errors"
	"flag"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestWriteTextGolden(t *testing.T) {
	tests := []struct {
		name string
		run  *results.Run
	}{
		{"single", fixture.SingleRun()},
		{"compare", fixture.CompareRun()},
		{"interrupted", fixture.InterruptedRun()},
		{"sweep", fixture.SweepRun()},
		{"speed", fixture.SpeedRun()},
		{"diagnosed", fixture.DiagnosedRun()},
		{"servercpus", fixture.ServerCPUsRun()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, analysis.Analyze(tt.run)); err != nil {
				t.Fatalf("WriteText: %v", err)
			}
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./results -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("WriteText output differs from %s (go test ./results -update refreshes it)\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// TestWriteTextContent checks facts in the report that must hold whatever
// the layout, so that a careless -update cannot bless a wrong number.
func TestWriteTextContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(fixture.CompareRun())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"baseline  baseline\n",
		"-- kae, repetition 2\n",
		"env KAE_GO_SOFT_RATIO=33 OPENSSL_CONF=/home/openssl.cnf\n",
		// baseline rep 1: 120,000 + 120,680 requests over [t0, t0+2.001 s].
		"240,680  (120,279.9 req/s)",
		`  connect    2  first: "dial tcp 127.0.0.1:8443: connect: connection refused"`,
		"status       2xx 362,299  5xx 1\n",
		"== comparison",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\nreport:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("report contains an escape sequence")
	}
	for i, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d has trailing spaces: %q", i+1, line)
		}
	}

	// One variant, one repetition: no comparison table.
	b.Reset()
	if err := WriteText(&b, analysis.Analyze(fixture.SingleRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "comparison") {
		t.Errorf("single-repetition report has a comparison table:\n%s", b.String())
	}
}

// TestWriteTextUnknownBaseline: a run that ended without its baseline
// (never measured) is still reported, and says so.
func TestWriteTextUnknownBaseline(t *testing.T) {
	r := fixture.CompareRun()
	r.Baseline = "nope"
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteText with a baseline not measured: %v", err)
	}
	for _, want := range []string{"baseline  nope (not measured)\n", `baseline "nope" not measured: no variant is compared with it`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteTextWriterError(t *testing.T) {
	err := WriteText(failWriter{}, analysis.Analyze(fixture.SingleRun()))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteText to a failing writer: err = %v, want it to wrap \"disk full\"", err)
	}
}

// TestWriteTextSweepContent checks the CPU, client-bound, probe and sweep
// parts of the report against hand-computed values of sweepRun.
func TestWriteTextSweepContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(fixture.SweepRun())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		// The loud line, right under the repetition's heading, and at the top.
		"-- kae-soft-0, repetition 1\nCLIENT-BOUND: group 1 (CPUs 4-7) was 97 % busy: this figure measures kaeload, not the server\n",
		"WARNING: variant kae-soft-0, repetition 1: CLIENT-BOUND:",
		// 0.55·8 + 0.56·8 = 8.88 client CPU-seconds for 240,680 requests.
		"client cpu     8.88 s, busiest group 1 at 56.0 %  (27,103.6 req per client cpu-s)\n",
		// 240,680 requests / 3.9 server CPU-seconds.
		"server cpu     3.90 s, 97.5 % busy on CPUs 12-13  (61,712.8 req per server cpu-s)\n",
		// ratio 0 rep 1: 340,200 ops for 340,200 requests.
		"probe kae_ops  delta 340,200 (before 1,000,000, after 1,340,200), 1.000 per request\n",
		"probe kae_ops  failed: exit status 1: cat: /sys/class/kae/ops: No such file or directory\n",
		"group  cpus  threads  conns  requests      req/s  errors  p99 total ms  cpu busy\n",
		"CLIENT-BOUND (1 of 3 reps)",
		"* best of kae-soft-{ratio}",
		"== sweep kae-soft-{ratio}: mean req/s by ratio (by value)\n",
		// baseline 120,186.6 of a 200,000 scale on 40 characters: 24 '#'.
		"       -  baseline      |" + strings.Repeat("#", 24) + strings.Repeat(" ", 16) + "|   120,186.6",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// kae-soft-0 rep 1, group 1: 170,200 requests in 2 s, 97 % busy.
	if !regexp.MustCompile(`\n1 +4-7 +4 +50 +170,200 +85,100\.0 +0 +[0-9.]+ +97\.0 %\n`).MatchString(out) {
		t.Errorf("report lacks the group row of kae-soft-0 rep 1 with 97.0 %% busy")
	}
	if n := strings.Count(out, "\nCLIENT-BOUND:"); n != 1 {
		t.Errorf("%d CLIENT-BOUND lines under repetitions, want 1", n)
	}
	// Sweep rows in numeric order, the best marked.
	i0 := strings.Index(out, "       0  kae-soft-0 ")
	i10 := strings.Index(out, "      10  kae-soft-10 ")
	i33 := strings.Index(out, "*     33  kae-soft-33 ")
	i100 := strings.Index(out, "     100  kae-soft-100 ")
	if i0 < 0 || !(i0 < i10 && i10 < i33 && i33 < i100) {
		t.Errorf("sweep rows at %d %d %d %d, want 0 < 10 < 33 < 100 in that order, 33 starred", i0, i10, i33, i100)
	}
	if strings.ContainsAny(out[strings.Index(out, "== sweep"):], "\x1b") {
		t.Errorf("sweep chart contains escape sequences")
	}
}

// comparisonLines are the lines of the text report's comparison: its
// title, note, table and what is below the table.
func comparisonLines(out string) []string {
	_, after, ok := strings.Cut(out, "\n== comparison:")
	if !ok {
		return nil
	}
	var lines []string
	blanks := 0
	for _, l := range strings.Split(after, "\n") {
		if l == "" {
			blanks++
		}
		if blanks == 2 || strings.HasPrefix(l, "== ") {
			break
		}
		lines = append(lines, l)
	}
	return lines
}

// TestComparisonFits120: the text comparison fits 120 columns in every
// golden and with long variant names and many cautions, where every
// variant's verdict, caveats and notes are said below the table, the
// baseline's caveat once.
func TestComparisonFits120(t *testing.T) {
	goldens, _ := filepath.Glob("testdata/*.golden")
	stored, _ := filepath.Glob("../../cmd/kaeload/testdata/stored/*/report.text.golden")
	texts := map[string]string{}
	for _, path := range append(goldens, stored...) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), "\n== comparison:") {
			texts[path] = string(b)
		}
	}
	if len(texts) < 7 {
		t.Fatalf("%d goldens with a comparison, want 7 or more", len(texts))
	}
	sweep := fixture.SweepRun()
	for i := range sweep.Variants[0].Reps[:2] { // the baseline client-bound
		sweep.Variants[0].Reps[i] = fixture.Measured(sweep.Variants[0].Reps[i], []float64{0.55, 0.97}, 3.0, 0)
	}
	for _, r := range []*results.Run{sweep, fixture.ServerCPUsRun()} {
		for i := range r.Variants {
			r.Variants[i].Name = (r.Variants[i].Name + "-with-long-name")[:14]
		}
		r.Baseline = r.Variants[0].Name
		m := analysis.Analyze(r)
		var b bytes.Buffer
		if err := WriteText(&b, m); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(comparisonLines(b.String()), "\n")
		texts[r.Name] = b.String()
		flat := strings.Join(strings.Fields(out), " ")
		base := m.Summary.Variants[0].Caveat.String()
		if strings.Contains(flat, "of the baseline") || (base != "" && strings.Count(flat, base) != 1) || (r == sweep && base == "") {
			t.Errorf("%s: the baseline's caveat %q is not said once:\n%s", r.Name, base, out)
		}
		for i := 1; i < len(m.Summary.Variants); i++ {
			v := m.Summary.Variants[i]
			own := slices.DeleteFunc(slices.Clone(v.VerdictCaveat.N("notes")), func(n notes.Note) bool { return n.B("baseline") })
			verdict := format.VerdictLine(v.Comparison, notes.Join(own, "; ")) // without the baseline's flags
			for _, w := range []string{verdict, measure.NotesCell(&v)} {
				if verdict == "" || !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("%s: %s: the comparison lacks %q:\n%s", r.Name, v.Name, w, out)
				}
			}
		}
	}
	for name, out := range texts {
		for _, l := range comparisonLines(out) {
			if n := utf8.RuneCountInString(l); n > 120 {
				t.Errorf("%s: a comparison line of %d columns: %q", name, n, l)
			}
		}
	}
}
