package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/target"
)

// affinityWatch samples, while a run is on, the CPU mask of every thread
// of every worker and records any that differs from its group's CPUs.
type affinityWatch struct {
	mu      sync.Mutex
	want    map[int]string // pid -> group CPUs
	samples map[int]int    // pid -> thread masks checked
	bad     []string
}

func newAffinityWatch() *affinityWatch {
	return &affinityWatch{want: map[int]string{}, samples: map[int]int{}}
}

func (a *affinityWatch) add(pid int, cpus string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.want[pid] = cpus
}

func (a *affinityWatch) sample() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for pid, want := range a.want {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			continue // exited
		}
		for _, task := range tasks {
			have, err := pinning.Allowed(fmt.Sprintf("%d/task/%s", pid, task.Name()))
			if err != nil {
				continue
			}
			a.samples[pid]++
			if have.String() != want {
				a.bad = append(a.bad, fmt.Sprintf("pid %d thread %s: CPUs %s, want %s", pid, task.Name(), have, want))
			}
		}
	}
}

// run watches affinities every 50 ms until stop is closed.
func (a *affinityWatch) run(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			a.sample()
		}
	}
}

// runPinned runs p with two groups on CPUs 0 and 1, watching every worker
// thread's affinity while the run is on, and checks what every run must
// satisfy. It returns the run and the workers' pids.
func runPinned(t *testing.T, p *plans.Plan, opts Options) (*results.Run, []int) {
	t.Helper()
	watch := newAffinityWatch()
	var mu sync.Mutex
	var pids []int
	opts.hooks.workerStart = func(group, pid int) {
		mu.Lock()
		pids = append(pids, pid)
		mu.Unlock()
		watch.add(pid, pinning.Set(p.Load.Groups[group].CPUs).String())
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go watch.run(stop, done)
	run, err := Run(context.Background(), p, opts)
	close(stop)
	<-done
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, b := range watch.bad {
		t.Error(b)
	}
	if got, want := len(watch.samples), len(p.Load.Groups); got != want {
		t.Errorf("watched %d workers, want %d", got, want)
	}
	for pid, n := range watch.samples {
		if n < 10 { // ≥ 2 threads × many samples in a 1.5 s window
			t.Errorf("pid %d: only %d thread masks sampled", pid, n)
		}
	}
	if len(run.Variants) != 1 || len(run.Variants[0].Reps) != 1 {
		t.Fatalf("run has %d variants, want 1 with 1 rep: %+v", len(run.Variants), run.Variants)
	}
	rep := run.Variants[0].Reps[0]
	if got, want := len(rep.Groups), 2; got != want {
		t.Fatalf("rep has %d groups, want %d", got, want)
	}
	var sum uint64
	for i, g := range rep.Groups {
		if got, want := g.Index, i; got != want {
			t.Errorf("group %d: Index = %d, want %d", i, got, want)
		}
		if got, want := g.CPUs, strconv.Itoa(i); got != want {
			t.Errorf("group %d: CPUs = %q, want %q", i, got, want)
		}
		if g.Requests == 0 {
			t.Errorf("group %d: no requests in the window", i)
		}
		if got, want := g.Window.Length(), p.Load.Duration; got != want {
			t.Errorf("group %d: window %s, want %s", i, got, want)
		}
		if g.Window != rep.Groups[0].Window {
			t.Errorf("group %d: window %v differs from group 0's %v", i, g.Window, rep.Groups[0].Window)
		}
		if got := g.Errors.Total(); got != 0 {
			t.Errorf("group %d: %d errors: %+v", i, got, g.Errors)
		}
		if g.Resumed != 0 {
			t.Errorf("group %d: %d resumed handshakes, want 0", i, g.Resumed)
		}
		sum += g.Requests
	}
	if got, want := rep.Total.Requests, sum; got != want {
		t.Errorf("total requests = %d, want the sum of the groups %d", got, want)
	}
	if got, want := rep.Total.Latency.Total.TotalCount(), int64(sum); got != want {
		t.Errorf("total latency histogram holds %d requests, want %d", got, want)
	}
	checkRepTimeline(t, p, rep)
	if run.Interrupted || run.Finished.Before(run.Started) {
		t.Errorf("run: Interrupted=%v Started=%v Finished=%v", run.Interrupted, run.Started, run.Finished)
	}
	var encoded plans.Plan
	if err := json.Unmarshal(run.Plan, &encoded); err != nil {
		t.Fatalf("decode run.Plan: %v", err)
	}
	if encoded.Target.Addr == "" || len(encoded.Load.Groups) != 2 {
		t.Errorf("run.Plan = %s, want the plan with its address", run.Plan)
	}
	if left := waitGone(pids, 0); len(left) > 0 {
		t.Errorf("workers %v still running after Run returned", left)
	}
	return run, pids
}

// TestRunBuiltin runs two pinned groups against the built-in target.
//
// Client and server counts relate exactly. The built-in target counts
// every request it answers: warm-up requests, requests in the window, and
// requests in flight when the window ends. The client counts responses
// completing inside the window as Requests, and drains the ones in flight
// at the end as Outside.Late, so with nothing abandoned: server requests ==
// client Requests + Outside.Warmup + Outside.Late. Every request has its
// own connection, so server connections ≥ server requests.
func TestRunBuiltin(t *testing.T) {
	needCPUs(t, 2)
	var srv *target.Server
	progress := &testkit.LockedBuffer{}
	opts := testOptions(t, "1")
	opts.hooks.builtin = func(s *target.Server) { srv = s }
	opts.Progress = progress
	opts.ProgressMode = ProgressPlain
	p := builtinPlan(2*time.Second, []int{0}, []int{1})
	run, _ := runPinned(t, p, opts)
	if srv == nil {
		t.Fatal("the built-in hook was not called")
	}
	total := run.Variants[0].Reps[0].Total
	st := srv.Stats()
	t.Logf("client: %d requests in the window; server: %+v", total.Requests, st)
	if st.Connections < st.Requests {
		t.Errorf("server: %d connections for %d requests; with connection: close every request has its own", st.Connections, st.Requests)
	}
	if st.Resumed != 0 {
		t.Errorf("server: %d resumed handshakes, want 0", st.Resumed)
	}
	if total.Handshakes < total.Requests {
		t.Errorf("client: %d handshakes for %d requests, want one per request", total.Handshakes, total.Requests)
	}

	// The built-in target runs in the controller: its CPUs are watched
	// as a server's, their busy time holding target and client together
	// (what judges saturation), and no group is flagged as sharing them.
	rep := &run.Variants[0].Reps[0]
	if s, l := rep.WindowSpread, total.Window.Length(); s == nil || s.Start > l/100 || s.End > l/100 {
		t.Errorf("the groups' windows spread %+v, want recorded and within 1 %% of the %s window", s, l)
	}
	if s := rep.ServerCPUs; s == nil || !s.Builtin || s.Busy == nil || s.Controller != 0 || s.CPUs != rep.ServerCPU.CPUs {
		t.Errorf("the built-in target's CPUs %+v, want measured, marked built-in, on the CPUs of its CPU time %+v and with no controller time besides", s, rep.ServerCPU)
	} else if u, _ := analysis.RepServerCPUUse(rep); len(u.Shared) > 0 || u.Busy < u.Server+u.Kaeload-0.05 {
		t.Errorf("the built-in target's CPUs: %+v; want no group sharing them and their busy time (%.2f) to hold the target's (%.2f) and the workers' (%.2f)", u, u.Busy, u.Server, u.Kaeload)
	}

	// Plain progress: status lines, then the summary that matches the
	// result. This machine's namespace is everyone's: its kernel counters
	// may name trouble of other processes', as the timeline has it.
	out := progress.String()
	t.Logf("progress output:\n%s", out)
	status := regexp.MustCompile(`^variant default rep 1/1:( warm-up,)? \d+\.\d s left, \d+ req/s, \d+ errors(; kernel client\+server: .*)?$`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		t.Fatalf("progress has %d lines, want a status line and a summary", len(lines))
	}
	for _, l := range lines[:len(lines)-1] {
		if !status.MatchString(l) {
			t.Errorf("status line %q does not match %s", l, status)
		}
	}
	secs := total.Window.Length().Seconds()
	want := fmt.Sprintf("variant default rep 1/1: done, %d requests in %.1f s, %.0f req/s, 0 errors", total.Requests, secs, float64(total.Requests)/secs)
	if us, _, ok := analysis.RepClientCPU(&run.Variants[0].Reps[0]).PerRequest(total.Requests); ok {
		want += ", client " + format.Micros(us) + " µs/req" // the client's CPU per request, when measured
	}
	want += kernelWords(kernelOf(run.Variants[0].Reps[0].Timeline))
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("summary line\n got %q\nwant %q", got, want)
	}
	testkit.SameResponses(t, "the built-in target", st.Requests, total.Counts)
}

// TestRunNginx runs two pinned groups against nginx on CPU 0 and checks the
// client's count against nginx's access log.
//
// nginx stamps $msec when it has sent the response; the client counts a
// request when it has read the last byte. The two instants differ by the
// loopback delivery (µs) and $msec has millisecond resolution, so only
// requests logged within a few ms of a window edge can land on different
// sides of it. The test therefore requires
// lines in [start+δ, end−δ) ≤ client total ≤ lines in [start−δ, end+δ), δ = 5 ms,
// and reports whether the plain count [start, end) matches exactly. Over
// the whole run the accounting is exact: every line nginx logged is a
// response the client read, counted in the window, in the warm-up or as
// late (drained after the window). And per interval of the timeline the
// client's count agrees with nginx's log bucketed by $msec, within what
// the boundaries can move (checkTimelineLog).
func TestRunNginx(t *testing.T) {
	endToEndOnce(t, "the client's count against nginx's log (TestRunBuiltin races the same controller)")
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "rsa2048", CPUs: "0"})
	p := plan(ng.Addr, 1500*time.Millisecond, []int{0}, []int{1})
	run, _ := runPinned(t, p, testOptions(t, "1"))
	total := run.Variants[0].Reps[0].Total
	win := run.Variants[0].Reps[0].Groups[0].Window
	const delta = 5 * time.Millisecond
	var exact, inner, outer uint64
	lines := ng.Log(t)
	for _, l := range lines {
		if l.Reused {
			t.Fatalf("nginx resumed a session: %+v", l)
		}
		if !l.Time.Before(win.Start) && l.Time.Before(win.End) {
			exact++
			if l.Status != 200 {
				t.Errorf("status %d in the window: %+v", l.Status, l)
			}
		}
		if !l.Time.Before(win.Start.Add(delta)) && l.Time.Before(win.End.Add(-delta)) {
			inner++
		}
		if !l.Time.Before(win.Start.Add(-delta)) && l.Time.Before(win.End.Add(delta)) {
			outer++
		}
	}
	t.Logf("client %d requests; nginx %d lines in all, %d in the window (%d inner, %d outer)", total.Requests, len(lines), exact, inner, outer)
	if total.Requests < inner || total.Requests > outer {
		t.Errorf("client counted %d requests, want between %d and %d (nginx lines in the window ∓ %s)", total.Requests, inner, outer, delta)
	}
	if exact != total.Requests {
		t.Logf("note: nginx lines in [start, end) = %d, client = %d (edge requests)", exact, total.Requests)
	}
	// Per interval, against the log: a clean run only (a request the
	// client gave up on may still be in nginx's log).
	if total.Errors.Total() == 0 && total.Outside.Abandoned == 0 && total.Outside.WarmupErrors == 0 {
		checkTimelineLog(t, run.Variants[0].Reps[0], lines, total.Slots)
	} else {
		t.Logf("timeline against the log not checked: errors %+v, outside %+v", total.Errors, total.Outside)
	}
	testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
}

// kernelOf is the live display's kernel trouble over the window of tl
// (live.kernel), from the timeline's stored counters.
func kernelOf(tl *results.Timeline) string {
	lv := newLive(0)
	lv.setTCPHosts(tl.Hosts)
	for i, pt := range tl.Points {
		k := 0
		if pt.Start < 0 {
			k = -1
		}
		for h := range tl.Hosts {
			d := cpustat.TCPDelta{Values: map[string]uint64{}}
			for _, e := range kernelEvents {
				d.Values[e.counter], _ = tl.TCP(i, h, e.counter)
			}
			lv.addTCP(h, k, d)
		}
	}
	return lv.kernel()
}

// inWindow matches the progress bars' total line once the window has
// begun (in the warm-up it says "left (warm-up)"); the bars redraw every
// 250 ms, on a terminal or not.
var inWindow = regexp.MustCompile(`(?m)^total .* s left *$`)

// waitFor polls cond every 10 ms until it holds or d has passed, and
// reports whether it held.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestWorkerKilled kills one worker mid-run, once its window has begun
// (the progress bars leave the warm-up): Run fails within 5 s with an
// error naming the group, keeps the window FAILED with the other group's
// record, and no worker survives.
func TestWorkerKilled(t *testing.T) {
	needCPUs(t, 2)
	progress := &testkit.LockedBuffer{}
	opts := testOptions(t, "1")
	opts.Progress = progress
	opts.ProgressMode = ProgressOn
	var mu sync.Mutex
	var pids []int
	killed := make(chan time.Time, 1)
	opts.hooks.workerStart = func(group, pid int) {
		mu.Lock()
		pids = append(pids, pid)
		mu.Unlock()
		if group == 1 {
			go func() {
				if !waitFor(20*time.Second, func() bool { return inWindow.MatchString(progress.String()) }) {
					t.Errorf("the window did not begin within 20 s:\n%s", progress.String())
				}
				_ = syscall.Kill(pid, syscall.SIGKILL)
				killed <- time.Now()
			}()
		}
	}
	start := time.Now()
	run, err := Run(context.Background(), builtinPlan(20*time.Second, []int{0}, []int{1}), opts)
	returned := time.Now()
	if err == nil {
		t.Fatal("Run succeeded with a killed worker")
	}
	if len(run.Variants) != 1 || len(run.Variants[0].Partial) != 1 || !run.Interrupted {
		t.Fatalf("run: %d variants, interrupted %v; want the FAILED window kept, interrupted", len(run.Variants), run.Interrupted)
	}
	if p := run.Variants[0].Partial[0]; p.Lost == nil || p.Lost.Group != 1 || p.Lost.Why != "killed by signal 9" || len(p.Groups) != 1 {
		t.Errorf("FAILED window: lost %+v, %d groups; want group 1 killed by signal 9 and group 0's record", p.Lost, len(p.Groups))
	}
	t.Logf("error: %v", err)
	var we *WorkerError
	if !errors.As(err, &we) || we.Group != 1 || we.CPUs != "1" {
		t.Errorf("error %v: want a *WorkerError for group 1 on CPUs 1", err)
	}
	for _, s := range []string{"group 1 (CPUs 1)", "signal: killed"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	select {
	case at := <-killed:
		if d := returned.Sub(at); d > 5*time.Second {
			t.Errorf("Run returned %s after the kill, want ≤ 5 s", d)
		}
	default:
		t.Errorf("Run returned after %s, before the worker was killed", returned.Sub(start))
	}
	mu.Lock()
	defer mu.Unlock()
	if left := waitGone(pids, 0); len(left) > 0 {
		t.Errorf("workers %v still running after Run returned", left)
	}
}

// TestBrokenWorkers checks that each way a worker can fail stops the run
// with an error naming the group and saying what happened.
func TestBrokenWorkers(t *testing.T) {
	needCPUs(t, 1)
	tests := []struct {
		mode string
		want []string
	}{
		{"garbage", []string{"group 0 (CPUs 0)", `not a protocol message: "hello, I am not a protocol line"`, "about to write garbage"}},
		{"panic", []string{"group 0 (CPUs 0)", "exited before its final record (exit status 2)", "panic: test worker panic"}},
		{"silent", []string{"group 0 (CPUs 0)", "sent nothing for 3s"}},
		{"unpinned", []string{"group 0 (CPUs 0)", "worker failed: group 0: worker thread", "was not started pinned"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var pids []int
			opts := testOptions(t, tt.mode)
			opts.hooks.workerStart = func(_, pid int) { pids = append(pids, pid) }
			start := time.Now()
			_, err := Run(context.Background(), builtinPlan(20*time.Second, []int{0}), opts)
			if err == nil {
				t.Fatal("Run succeeded")
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("Run took %s to fail", d)
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error\n%v\ndoes not contain %q", err, s)
				}
			}
			if left := waitGone(pids, 0); len(left) > 0 {
				t.Errorf("workers %v still running", left)
			}
		})
	}
}

// TestInterrupt cancels the run during the second variant: Run returns the
// first variant, Interrupted, an error wrapping context.Canceled, has run
// the stop command for both variants (with each variant's env), and
// leaves no worker behind.
func TestInterrupt(t *testing.T) {
	needCPUs(t, 2)
	p := builtinPlan(700*time.Millisecond, []int{0}, []int{1})
	calls := commandLog(t, p, map[string]string{"K": "1"}, map[string]string{"K": "2"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := testOptions(t, "1")
	var mu sync.Mutex
	var pids []int
	var cancelled time.Time
	opts.hooks.workerStart = func(group, pid int) {
		mu.Lock()
		defer mu.Unlock()
		pids = append(pids, pid)
		if len(pids) == 3 { // variant b's first worker
			time.AfterFunc(800*time.Millisecond, func() {
				mu.Lock()
				cancelled = time.Now()
				mu.Unlock()
				cancel()
			})
		}
	}
	run, err := Run(ctx, p, opts)
	returned := time.Now()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want one wrapping context.Canceled", err)
	}
	if run == nil || !run.Interrupted {
		t.Fatalf("run = %+v, want Interrupted", run)
	}
	if n := len(run.Variants); n == 2 && len(run.Variants[1].Reps) == 0 && len(run.Variants[1].Partial) == 1 {
		// The interrupt came inside b's window: what it measured is kept,
		// out of the statistics.
		if got, max := run.Variants[1].Partial[0].Total.Window.Length(), 700*time.Millisecond; got <= 0 || got >= max {
			t.Errorf("b's partial window lasted %s, want within (0, %s)", got, max)
		}
	} else if n != 1 {
		t.Fatalf("run has %d variants, want 1 (only a completed) or 2 (b with a partial window)", n)
	}
	if got, want := run.Variants[0].Name, "a"; got != want || len(run.Variants[0].Reps) != 1 {
		t.Errorf("variant %q with %d reps, want %q with 1", got, len(run.Variants[0].Reps), want)
	}
	if got, want := strings.Join(run.Warnings.Strings(), "|"), "variant b rep 1/1 was interrupted and is not included"; got != want {
		t.Errorf("warnings = %q, want %q", got, want)
	}
	if got, want := calls(), "stop a 1, start a 1, stop a 1, stop b 2, start b 2, stop b 2"; got != want {
		t.Errorf("server commands = %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := returned.Sub(cancelled); d > 3*time.Second {
		t.Errorf("Run returned %s after cancel, want ≤ 3 s", d)
	}
	if left := waitGone(pids, 0); len(left) > 0 {
		t.Errorf("workers %v still running after Run returned", left)
	}
}

// TestControllerKilled kills -9 a controller mid-run and checks that its
// workers are gone within 5 s.
func TestControllerKilled(t *testing.T) {
	needCPUs(t, 2)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envController+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr testkit.LockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pidc := make(chan int)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "pid ")); err == nil {
				pidc <- n
			}
		}
		close(pidc)
	}()
	var pids []int
	timeout := time.After(20 * time.Second)
	for len(pids) < 2 {
		select {
		case pid, ok := <-pidc:
			if !ok {
				t.Fatalf("controller ended before starting 2 workers; stderr:\n%s", stderr.String())
			}
			pids = append(pids, pid)
		case <-timeout:
			t.Fatalf("controller started no workers within 20 s; stderr:\n%s", stderr.String())
		}
	}
	// The workers are loading once they have used 100 ms of CPU, more
	// than a process start takes.
	for _, pid := range pids {
		if !waitFor(20*time.Second, func() bool { n, _ := cpuSeconds(pid); return n >= 0.1 || !testkit.Alive(pid) }) || !testkit.Alive(pid) {
			t.Fatalf("worker %d not running (or not loading for 20 s) before the kill; stderr:\n%s", pid, stderr.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed := time.Now()
	if left := waitGone(pids, 5*time.Second); len(left) > 0 {
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		t.Fatalf("workers %v outlived their controller by 5 s", left)
	}
	t.Logf("workers gone %s after the controller was killed", time.Since(killed).Round(time.Millisecond))
}

// TestAbortKeepsWindow interrupts and aborts at once inside the window:
// what was measured is kept as a partial window, FAILED when a group's
// final record was given up on.
func TestAbortKeepsWindow(t *testing.T) {
	needCPUs(t, 1)
	progress := &testkit.LockedBuffer{}
	opts := testOptions(t, "1")
	opts.Progress, opts.ProgressMode = progress, ProgressOn
	abort := make(chan struct{})
	opts.Abort = abort
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if !waitFor(20*time.Second, func() bool { return inWindow.MatchString(progress.String()) }) {
			t.Errorf("the window did not begin within 20 s:\n%s", progress.String())
		}
		cancel()
		close(abort)
	}()
	run, err := Run(ctx, builtinPlan(20*time.Second, []int{0}), opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want one wrapping context.Canceled", err)
	}
	if len(run.Variants) != 1 || len(run.Variants[0].Partial) != 1 {
		t.Fatalf("run has %d variants, want 1 with its partial window", len(run.Variants))
	}
	p := run.Variants[0].Partial[0]
	if l := p.Lost; p.Total.Window.Length() <= 0 || l != nil && (l.Group != 0 || l.Why != "the run was aborted") {
		t.Errorf("partial window of %s, lost %+v; want a window, and group 0 aborted if lost", p.Total.Window.Length(), l)
	}
}
