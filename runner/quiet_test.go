package runner

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// quietRun runs one short window of the built-in target on CPU 0 that
// waits for a quiet machine as q says, and returns the run, its
// repetition and the plain progress display's output.
func quietRun(t *testing.T, q plans.Quiet) (*results.Run, *results.Rep, string) {
	t.Helper()
	p := builtinPlan(200*time.Millisecond, []int{0})
	p.Quiet = &q
	var progress bytes.Buffer
	opts := testOptions(t, "1")
	opts.Progress, opts.ProgressMode = &progress, ProgressPlain
	run, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Variants) != 1 || len(run.Variants[0].Reps) != 1 {
		t.Fatalf("want one measured window, got %+v", run.Variants)
	}
	rep := &run.Variants[0].Reps[0]
	if rep.Quiet == nil {
		t.Fatal("the window's wait for a quiet machine is not recorded")
	}
	t.Logf("wait %+v, busiest %+v", *rep.Quiet, rep.Quiet.Busiest)
	return run, rep, progress.String()
}

// TestWaitQuietBusy: with a busy loop on the group's CPU the wait lasts
// its timeout, the progress shows it, and the window is measured anyway
// and flagged by a warning naming the wait and the busiest process.
func TestWaitQuietBusy(t *testing.T) {
	needCPUs(t, 1)
	endToEndOnce(t, "a wait for a quiet machine")
	loop := exec.Command("timeout", "60", "sh", "-c", "while :; do :; done") // bounded: it ends by itself
	loop.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := pinning.Start(loop, pinning.Set{0}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-loop.Process.Pid, syscall.SIGKILL)
		_ = loop.Wait()
	})
	q := plans.Quiet{MaxOther: 0.10, For: time.Second, Timeout: 2 * time.Second}
	run, rep, progress := quietRun(t, q)
	w := rep.Quiet
	if !w.TimedOut || w.Waited < q.Timeout || w.Others < q.MaxOther || w.Busiest == nil {
		t.Fatalf("with a busy loop (pid %d) on the group's CPU: wait %+v, want timed out after %s with others over %.0f %% and the busiest named", loop.Process.Pid, *w, q.Timeout, 100*q.MaxOther)
	}
	want := notes.New(notes.QuietTimedOut, "label", results.RepLabel("default", 0, 1), "waited", w.Waited, "others", w.Others,
		"max_other", w.MaxOther, "busiest", w.Busiest.Comm, "pid", w.Busiest.PID).String()
	if !slices.Contains(run.Warnings.Strings(), want) || w.Busiest == nil || !strings.Contains(want, w.Busiest.Comm) {
		t.Errorf("warnings %q, want %q naming the busiest process", run.Warnings, want)
	}
	if !strings.Contains(progress, "waiting for a quiet machine") || !strings.Contains(progress, "busiest") {
		t.Errorf("the progress does not show the wait and the busiest process:\n%s", progress)
	}
}

// TestWaitQuietIdle: without a busy loop the wait ends once the machine
// stayed quiet for `for`, and the window carries no warning.
func TestWaitQuietIdle(t *testing.T) {
	needCPUs(t, 1)
	endToEndOnce(t, "a wait for a quiet machine")
	q := plans.Quiet{MaxOther: 0.25, For: time.Second, Timeout: 10 * time.Second}
	run, rep, _ := quietRun(t, q)
	w := rep.Quiet
	if w.TimedOut {
		testkit.SkipBusy(t, "other processes took %.0f %% of the CPUs the run watched for %s (busiest %+v)", 100*w.Others, q.Timeout, w.Busiest)
	}
	if w.Waited < q.For || w.Waited >= q.Timeout {
		t.Errorf("waited %s on a quiet machine, want at least %s (for) and under %s (timeout)", w.Waited, q.For, q.Timeout)
	}
	for _, s := range run.Warnings.Strings() {
		if strings.Contains(s, "busy machine") {
			t.Errorf("a quiet wait's window is flagged: %q", s)
		}
	}
}

// TestWaitQuietSteps: the wait ends once every step for `for` was quiet,
// a noisy step starting the stretch again and naming the busiest; a
// machine never quiet times out. Steps are simulated, 10 ms each.
func TestWaitQuietSteps(t *testing.T) {
	defer func(f func(context.Context, pinning.Set, pinning.Set) (float64, *results.ProcessCPU, error)) {
		quietSample = f
	}(quietSample)
	for _, tc := range []struct {
		name     string
		shares   []float64 // one per step, the last repeated
		timedOut bool
		busiest  int // the share named busiest, 1-based, as its PID; 0: none
	}{
		{"quiet at once", []float64{0.01}, false, 0},
		{"noisy, then quiet", []float64{0.5, 0.01, 0.01, 0.3, 0.01}, false, 4},
		{"never quiet", []float64{0.5, 0.01, 0.6}, true, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, noisy := 0, time.Time{} // steps taken, when the last noisy one ended
			quietSample = func(context.Context, pinning.Set, pinning.Set) (float64, *results.ProcessCPU, error) {
				k++
				time.Sleep(10 * time.Millisecond)
				i := min(k, len(tc.shares))
				if tc.shares[i-1] >= 0.1 {
					noisy = time.Now()
				}
				return tc.shares[i-1], &results.ProcessCPU{PID: i, Comm: "busy"}, nil
			}
			p := builtinPlan(time.Second, []int{0})
			// A timeout of 500 ms: the longest quiet wait is about 10 steps.
			p.Quiet = &plans.Quiet{MaxOther: 0.1, For: 50 * time.Millisecond, Timeout: 500 * time.Millisecond}
			c := &controller{plan: p, builtin: true, book: &book{run: &results.Run{}}, opts: Options{Log: &testLog{t: t}}}
			w, err := c.waitQuiet(context.Background(), "w")
			if err != nil || w == nil {
				t.Fatalf("waitQuiet: %+v, %v", w, err)
			}
			if !noisy.IsZero() && !w.TimedOut && time.Since(noisy) < p.Quiet.For {
				t.Errorf("the wait ended %s after the last noisy step, want at least %s quiet", time.Since(noisy), p.Quiet.For)
			}
			busiest := 0
			if w.Busiest != nil {
				busiest = w.Busiest.PID
			}
			if w.TimedOut != tc.timedOut || busiest != tc.busiest || (!w.TimedOut && (w.Waited < p.Quiet.For || w.Waited >= p.Quiet.Timeout)) {
				t.Errorf("after %d steps: %+v, busiest step %d; want timed out %t, busiest step %d", k, *w, busiest, tc.timedOut, tc.busiest)
			}
		})
	}
}
