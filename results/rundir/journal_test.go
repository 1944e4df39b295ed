package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/render"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rep records a measured window, as the runner does.
func (j *Journal) rep(variant int, rep results.Rep) error {
	return j.Record(results.Change{Type: results.ChangeRep, Variant: variant, Rep: &rep})
}

// Run returns a copy of the run so far as ReadRunFile gives it.
func (j *Journal) Run() *results.Run {
	j.mu.Lock()
	defer j.mu.Unlock()
	r := clone(&j.run)
	r.Variants = results.Measured(r.Variants)
	return &r
}

// header returns r with its repetitions and speed runs removed: what the
// controller knows before any load.
func header(r *results.Run) *results.Run {
	h := clone(r)
	for i := range h.Variants {
		h.Variants[i].Reps, h.Variants[i].Speed = nil, nil
	}
	h.Finished, h.Interrupted = time.Time{}, false
	return &h
}

// testOptions are what cmd/kaeload gives a run directory, less the HTML:
// the analysis's warnings in run.json, summary.csv and speed.csv from one
// Report of the run so far.
var testOptions = JournalOptions{
	Annotate: analysis.Annotate,
	Render: func(r *results.Run) (map[string][]byte, error) {
		m := analysis.Analyze(r)
		files := map[string][]byte{}
		if len(r.Variants) > 0 || len(r.NotMeasured) > 0 {
			var b bytes.Buffer
			if err := render.WriteCSV(&b, m); err == nil {
				files[SummaryFile] = b.Bytes()
			}
		}
		if analysis.HasSpeed(r) {
			var b bytes.Buffer
			if err := render.WriteSpeedCSV(&b, m); err == nil {
				files[SpeedFile] = b.Bytes()
			}
		}
		return files, nil
	},
}

// runJSON encodes r for comparison.
func runJSON(t *testing.T, r *results.Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := results.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestJournal records a run repetition by repetition and checks after each
// that the directory, read the way `kaeload report DIR` reads it, holds
// exactly what was recorded, marked incomplete until the end; and that the
// run read back at the end is the run that was recorded.
func TestJournal(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.CompareRun()
	full.Warnings = results.Warnings{{Message: "a warning of the plan"}}
	dir := filepath.Join(t.TempDir(), "runs", "r1")
	var renders int
	opts := testOptions
	opts.Render = func(r *results.Run) (map[string][]byte, error) {
		renders++
		files, err := testOptions.Render(r)
		files[ReportFile] = []byte("<p>" + r.Name + "</p>")
		return files, err
	}
	j, err := CreateJournal(dir, header(full), opts)
	if err != nil {
		t.Fatal(err)
	}
	// Before any repetition: a readable, empty, incomplete run.
	r, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatalf("read the new run directory: %v", err)
	}
	if !r.Incomplete || len(r.Variants) != 0 {
		t.Errorf("new run: incomplete %v, %d variants, want true and 0", r.Incomplete, len(r.Variants))
	}
	n := 0
	for vi := range full.Variants {
		for _, rep := range full.Variants[vi].Reps {
			if err := j.rep(vi, rep); err != nil {
				t.Fatal(err)
			}
			n++
			r, err := ReadRunFile(dir, testOptions)
			if err != nil {
				t.Fatalf("after %d reps: %v", n, err)
			}
			got := 0
			for _, v := range r.Variants {
				got += len(v.Reps)
			}
			if got != n || !r.Incomplete {
				t.Errorf("after %d reps: directory holds %d, incomplete %v", n, got, r.Incomplete)
			}
			// run.json is rebuilt too, and says the same.
			rj, err := ReadRunFile(filepath.Join(dir, RunFile), testOptions)
			if err != nil {
				t.Fatalf("run.json after %d reps: %v", n, err)
			}
			if runJSON(t, rj) != runJSON(t, withAnnotations(r)) {
				t.Errorf("after %d reps: run.json differs from the journal", n)
			}
		}
	}
	if err := j.End(full.Finished, false); err != nil {
		t.Fatal(err)
	}
	if renders != n+2 {
		t.Errorf("report rendered %d times, want %d (header, each rep, end)", renders, n+2)
	}
	got, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if got.Incomplete {
		t.Errorf("ended run still incomplete")
	}
	if a, b := runJSON(t, got), runJSON(t, withAnnotations(full)); a != b {
		t.Errorf("journal replay differs from the recorded run:\n%s\nwant\n%s", a, b)
	}
	if a, b := runJSON(t, j.Run()), runJSON(t, full); a != b {
		t.Errorf("Journal.Run differs from the recorded run")
	}
	for _, name := range []string{RunFile, SummaryFile, ReportFile, JournalFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := j.rep(0, full.Variants[0].Reps[0]); err == nil {
		t.Errorf("Rep after End: no error")
	}
	// An existing run is never overwritten.
	if _, err := CreateJournal(dir, header(full), testOptions); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateJournal over an existing run: %v, want fs.ErrExist", err)
	}
}

// TestJournalCreateRenderFails: a rendering that fails at the start fails the start, with no journal,
// yet run.json and the header line are written, so the directory still reads.
func TestJournalCreateRenderFails(t *testing.T) {
	full := fixture.CompareRun()
	dir := filepath.Join(t.TempDir(), "run")
	opts := testOptions
	opts.Render = func(*results.Run) (map[string][]byte, error) { return nil, errors.New("boom") }
	j, err := CreateJournal(dir, header(full), opts)
	if j != nil || err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("CreateJournal with a failing rendering = %v, %v; want nil and its error", j, err)
	}
	if _, err := os.Stat(filepath.Join(dir, RunFile)); err != nil {
		t.Errorf("run.json: %v", err)
	}
	if r, err := ReadRunFile(dir, testOptions); err != nil || r.Name != full.Name {
		t.Errorf("ReadRunFile = %v, %v; want the header's run", r, err)
	}
}

// withAnnotations is r after Annotate, as run.json stores it.
func withAnnotations(r *results.Run) *results.Run {
	c := *r
	c.Warnings = append(results.Warnings(nil), r.Warnings...)
	analysis.Annotate(&c)
	return &c
}

// TestJournalKilled checks what a killed controller leaves: the journal's
// last line cut in the middle of a write is ignored, everything before it
// is read, and the run is marked incomplete; garbage elsewhere is an error
// with its line number.
func TestJournalKilled(t *testing.T) {
	fixture.SingleGoroutine(t)
	full := fixture.CompareRun()
	dir := filepath.Join(t.TempDir(), "r")
	j, err := CreateJournal(dir, header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range full.Variants[0].Reps {
		if err := j.rep(0, rep); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, JournalFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(results.Change{Type: results.ChangeRep, Variant: 1, Rep: &full.Variants[1].Reps[0]})
	cut := append(bytes.Clone(b), line[:len(line)/2]...)
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatalf("journal with a cut last line: %v", err)
	}
	if !r.Incomplete || len(r.Variants) != 1 || len(r.Variants[0].Reps) != len(full.Variants[0].Reps) {
		t.Errorf("killed run: incomplete %v, variants %d", r.Incomplete, len(r.Variants))
	}
	var text bytes.Buffer
	if err := render.WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "INCOMPLETE:") {
		t.Errorf("text report of a killed run does not say INCOMPLETE")
	}

	bad := append(bytes.Clone(b), []byte("{not json}\n")...)
	bad = append(bad, b[bytes.IndexByte(b, '\n')+1:]...)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunFile(dir, testOptions); err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("garbage on line 5: err = %v, want it named", err)
	}
}

// TestJournalDiskGone checks that a run directory removed mid-run makes
// the next record fail with an error naming the directory, while the run
// in memory keeps the repetition, so it can still be reported.
func TestJournalDiskGone(t *testing.T) {
	full := fixture.CompareRun()
	dir := filepath.Join(t.TempDir(), "r")
	j, err := CreateJournal(dir, header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	err = j.rep(0, full.Variants[0].Reps[0])
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Rep into a removed directory: err = %v, want an error naming %s", err, dir)
	}
	if r := j.Run(); len(r.Variants) != 1 || len(r.Variants[0].Reps) != 1 {
		t.Errorf("the repetition was lost from memory: %+v", r.Variants)
	}
	_ = j.End(time.Now(), false)
}

// storeRun records r in a new run directory dir through the journal, as
// a run stores itself: header, repetitions, speed runs, end.
func storeRun(t *testing.T, dir string, r *results.Run) {
	t.Helper()
	j, err := CreateJournal(dir, header(r), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for v := range r.Variants {
		for _, rep := range r.Variants[v].Reps {
			if err := j.rep(v, rep); err != nil {
				t.Fatal(err)
			}
		}
		if len(r.Variants[v].Speed) > 0 {
			if err := j.Record(results.Change{Type: results.ChangeSpeed, Variant: v, Speed: r.Variants[v].Speed}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := j.End(r.Finished, r.Interrupted); err != nil {
		t.Fatal(err)
	}
}

// TestJournalKeepsWhatItWrote: run.json is the journal's replay, even when the caller changes a
// repetition it recorded (a shared timeline or group slice) and its times carry monotonic readings.
func TestJournalKeepsWhatItWrote(t *testing.T) {
	full := fixture.CompareRun()
	dir := filepath.Join(t.TempDir(), "r1")
	j, err := CreateJournal(dir, header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now() // monotonic
	for vi := range full.Variants {
		for k, rep := range full.Variants[vi].Reps {
			rep.Total.Window = results.Window{Start: now, End: now.Add(3 * time.Second)}
			if err := j.rep(vi, rep); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				rep.Groups[0].Counts.Requests += 1000 // after it was recorded
			}
		}
	}
	if err := j.End(now.Add(time.Minute), false); err != nil {
		t.Fatal(err)
	}
	stored, err := os.ReadFile(filepath.Join(dir, RunFile))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	if got := runJSON(t, r); got != string(stored) {
		t.Errorf("run.json is not the journal's replay:\n%s\nvs\n%s", stored, got)
	}
}

// TestUnencodableRepStillReported: a repetition the journal cannot write (NaN, which JSON refuses) is an
// error, and still reaches the run the report is made from.
func TestUnencodableRepStillReported(t *testing.T) {
	full := fixture.CompareRun()
	j, err := CreateJournal(filepath.Join(t.TempDir(), "r"), header(full), testOptions)
	if err != nil {
		t.Fatal(err)
	}
	rep := full.Variants[0].Reps[0]
	rep.Total.GroupsRate = math.NaN()
	if err := j.rep(0, rep); err == nil {
		t.Fatal("recording an unencodable repetition: no error")
	}
	if r := j.Run(); len(r.Variants) == 0 || len(r.Variants[0].Reps) != 1 {
		t.Errorf("the unencodable repetition is not in the run: %+v", r.Variants)
	}
}
