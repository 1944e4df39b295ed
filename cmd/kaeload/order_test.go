package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/rundir"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// baselineSecond is two variants on the built-in target, the baseline
// listed second, two repetitions of 200 ms windows, in the default order
// (randomized blocks): the path most users take, where the first window
// is often not the baseline's. The tests store and resume runs; stray
// errors of a loaded machine (ports held in TIME_WAIT by other loads)
// must not fail a window, hence max_errors 50 %.
const baselineSecond = `name: baseline-second
target: {builtin: {cert: ecdsa-p256}}
load:
  connection: close
  duration: 200ms
  warmup: 0s
  groups: [{connections: 2}]
repeat: 2
cooldown: 0s
max_errors: 50%
variants:
  - name: a
  - name: b
baseline: b
`

// runFiles are the files every run directory must hold.
var runFiles = []string{rundir.RunFile, rundir.SummaryFile, rundir.ReportFile, rundir.LogFile}

// checkRunFiles fails t for every file of runFiles missing or empty in dir.
func checkRunFiles(t *testing.T, dir string) {
	t.Helper()
	for _, f := range runFiles {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (want a non-empty file)", f, err)
		}
	}
}

// windows is the set of (variant, repetition) windows of r, "a/1".
func windows(r *results.Run) []string {
	var out []string
	for _, v := range r.Variants {
		for _, rep := range v.Reps {
			out = append(out, fmt.Sprintf("%s/%d", v.Name, rep.Index+1))
		}
	}
	slices.Sort(out)
	return out
}

// TestBaselineNotFirst: with the baseline listed second and the default
// randomized order, a run stores every file and exits 0 whichever
// variant the order draws first; an interrupt after any window keeps a
// run that "kaeload report" shows, marked INCOMPLETE, and that --resume
// finishes into the windows of an uninterrupted run, with no warning left
// that a window was interrupted; a resume that fails writes nothing.
//
// The subtests run side by side (t.Parallel): each has its run directory
// and its own kaeload processes, and none measures a rate, so only the
// test's wall time changes, not what it checks.
func TestBaselineNotFirst(t *testing.T) {
	alongside(t)
	path := writeScenario(t, baselineSecond)
	plan, err := compile(path, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	base := slices.IndexFunc(plan.Variants, func(v plans.Variant) bool { return v.Name == plan.Baseline })

	// The default order, as a user runs it: a seed of its own.
	refDir := filepath.Join(t.TempDir(), "ref")
	out, errOut, code := kaeload(t, "run", path, "--progress", "off", "--out", refDir)
	skipIfStarved(t, code, out+errOut)
	if code != 0 || strings.Contains(errOut, "could not") {
		t.Fatalf("uninterrupted run: exit %d, want 0 and every file stored\n%s\n%s", code, out, errOut)
	}
	checkRunFiles(t, refDir)
	ref, err := readRun(refDir)
	if err != nil {
		t.Fatal(err)
	}
	want := windows(ref)
	if len(want) != 4 {
		t.Fatalf("uninterrupted run measured %q, want 4 windows", want)
	}

	t.Run("20 seeds", func(t *testing.T) {
		t.Parallel()
		// The storage path of a run — the runner's recorder, the journal
		// and every file rebuilt after each window — fed the reference
		// run's windows in the order each seed draws. What it stores
		// depends on the order alone, so each order is stored once.
		notFirst := 0
		stored := map[string]bool{}
		for seed := uint64(1); seed <= 20; seed++ {
			steps := plan.WithSeed(seed).Steps()
			if steps[0].Variant != base {
				notFirst++
			}
			if key := fmt.Sprint(steps); stored[key] {
				continue
			} else {
				stored[key] = true
			}
			dir := filepath.Join(t.TempDir(), fmt.Sprint(seed))
			st, err := newStore(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			h := *ref
			h.Seed, h.Finished, h.Warnings, h.Variants = seed, time.Time{}, nil, nil
			for _, v := range ref.Variants {
				h.Variants = append(h.Variants, results.Variant{Name: v.Name})
			}
			if err := st.begin(&h); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(st.log, "order: seed %d\n", seed)
			for i, s := range steps {
				v := &ref.Variants[s.Variant]
				k := slices.IndexFunc(v.Reps, func(r results.Rep) bool { return r.Index == s.Rep })
				if err := st.journal.Record(results.Change{Type: results.ChangeRep, Variant: s.Variant, Rep: &v.Reps[k]}); err != nil {
					t.Fatalf("seed %d: window %d (%s rep %d): %v", seed, i+1, v.Name, s.Rep+1, err)
				}
				if i == 0 && s.Variant != base {
					html, _ := os.ReadFile(filepath.Join(dir, rundir.ReportFile))
					if !strings.Contains(string(html), "b (not measured yet)") || !strings.Contains(string(html), ">a<") {
						t.Errorf("seed %d: report.html after the first window does not show a and the baseline not measured yet", seed)
					}
				}
			}
			h.Finished = time.Now()
			if _, err := st.end(&h); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			checkRunFiles(t, dir)
			if out, errOut, code := runArgs("report", dir); code != 0 || !strings.Contains(out, "baseline  b\n") {
				t.Errorf("seed %d: report exit %d\n%s%s", seed, code, out, errOut)
			}
		}
		if notFirst < 5 {
			t.Errorf("only %d of 20 seeds draw the baseline's window after another: the test does not test that", notFirst)
		}
	})

	// The interrupts replay one seed whose first window is a's, so that an
	// interrupt after the first window comes before the baseline ran.
	var seed uint64 = 1
	for plan.WithSeed(seed).Steps()[0].Variant == base {
		seed++
	}
	// Checked once every subtest has ended (they run in parallel).
	var warned atomic.Int32
	t.Cleanup(func() {
		if !t.Failed() && warned.Load() == 0 {
			t.Errorf("no interrupt left a 'was interrupted' warning: the stale-warning check tested nothing")
		}
	})
	for k := 1; k < len(want); k++ {
		t.Run(fmt.Sprintf("interrupt after window %d", k), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "run")
			done, sent := 0, false
			stdout, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
				if strings.Contains(line, " done: ") {
					done++
				}
				if done == k && !sent {
					sent = true
					_ = cmd.Process.Signal(os.Interrupt)
				}
			}, "run", path, "--seed", fmt.Sprint(seed), "--progress", "off", "--out", dir)
			if code != 130 || strings.Contains(errOut, "could not") {
				t.Fatalf("interrupted run: exit %d, want 130 and every file stored\n%s", code, errOut)
			}
			checkRunFiles(t, dir)
			if !strings.Contains(stdout, "INCOMPLETE") || !strings.Contains(stdout, "== variant a") {
				t.Errorf("the interrupted run's report is not marked INCOMPLETE or lacks variant a:\n%s", stdout)
			}
			out, errOut, code := runArgs("report", dir)
			if code != 0 || !strings.Contains(out, "INCOMPLETE") || !strings.Contains(out, "== variant a") {
				t.Errorf("kaeload report: exit %d, want 0 and variant a marked INCOMPLETE\n%s%s", code, out, errOut)
			}
			if k == 1 && !strings.Contains(out, "baseline  b (not measured yet)") {
				t.Errorf("after the first window the baseline is not said to be unmeasured:\n%s", out)
			}
			if html, _ := os.ReadFile(filepath.Join(dir, rundir.ReportFile)); strings.Contains(string(html), "nothing was measured") {
				t.Errorf("report.html says nothing was measured")
			}
			mid, err := readRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(windows(mid)); got != done {
				t.Errorf("the interrupted run keeps %d windows, %d were done", got, done)
			}
			if slices.ContainsFunc(mid.Warnings.Strings(), func(w string) bool { return strings.Contains(w, "was interrupted") }) {
				warned.Add(1)
			}

			if k == 1 {
				// A resume that fails before its run begins writes nothing.
				journal, _ := os.ReadFile(filepath.Join(dir, rundir.JournalFile))
				runLog, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile))
				other := writeScenario(t, strings.ReplaceAll(baselineSecond, "name: b", "name: c"))
				if _, errOut, code := kaeload(t, "run", "--resume", dir, other, "--progress", "off"); code == 0 {
					t.Errorf("resume with other variants: exit 0\n%s", errOut)
				}
				j2, _ := os.ReadFile(filepath.Join(dir, rundir.JournalFile))
				l2, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile))
				if string(j2) != string(journal) || string(l2) != string(runLog) {
					t.Errorf("a failed resume changed the journal (%d → %d bytes) or run.log (%d → %d bytes)", len(journal), len(j2), len(runLog), len(l2))
				}
			}

			out, errOut, code = kaeload(t, "run", "--resume", dir, "--progress", "off")
			skipIfStarved(t, code, out+errOut)
			if code != 0 || strings.Contains(errOut, "could not") {
				t.Fatalf("resume: exit %d, want 0 and every file stored\n%s\n%s", code, out, errOut)
			}
			if strings.Contains(out, "was interrupted") || strings.Contains(out, "INCOMPLETE") {
				t.Errorf("the finished run still says a window was interrupted or the run is incomplete:\n%s", out)
			}
			checkRunFiles(t, dir)
			r, err := readRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := windows(r); !slices.Equal(got, want) || r.Incomplete || r.Interrupted {
				t.Errorf("after the resume: windows %q (incomplete %v, interrupted %v), want %q as uninterrupted", got, r.Incomplete, r.Interrupted, want)
			}
			if slices.ContainsFunc(r.Warnings.Strings(), func(w string) bool { return strings.Contains(w, "was interrupted") }) {
				t.Errorf("stale warning after the resume: %q", r.Warnings)
			}
			jr, _ := os.ReadFile(filepath.Join(dir, rundir.JournalFile))
			if n := strings.Count(string(jr), `{"type":"resume"`); n != 1 {
				t.Errorf("the journal has %d resume records, want 1", n)
			}
		})
	}
}
