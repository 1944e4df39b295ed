package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/render"
)

// stampedSample is a reading of a group's CPUs and of its worker process,
// and when it was taken.
type stampedSample struct {
	at     time.Time
	cpus   cpustat.Sample
	worker float64 // the worker's CPU-seconds (utime + stime); -1 = not read
}

// processSeconds returns utime + stime of pid from /proc/PID/stat (fields
// 14 and 15, counted after the command name's closing parenthesis).
func processSeconds(pid int) (float64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])) // f[0] is field 3
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	var ticks uint64
	for _, s := range f[11:13] {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return float64(ticks) / cpustat.UserHZ, nil
}

// traceCPUs samples cpus, and the process whose id is stored in worker once
// it is, every 10 ms in the background until the returned function is
// called, which returns the samples in order.
func traceCPUs(t *testing.T, cpus pinning.Set, worker *atomic.Int64) (stop func() []stampedSample) {
	t.Helper()
	var (
		mu    sync.Mutex
		trace []stampedSample
		done  = make(chan struct{})
		over  = make(chan struct{})
	)
	go func() {
		defer close(over)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			before := time.Now()
			s, err := cpustat.SampleCPUs(cpus)
			w := -1.0
			if pid := worker.Load(); pid > 0 {
				if sec, err := processSeconds(int(pid)); err == nil {
					w = sec
				}
			}
			if err == nil {
				at := before.Add(time.Since(before) / 2) // the reads lie between
				mu.Lock()
				trace = append(trace, stampedSample{at, s, w})
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() []stampedSample {
		close(done)
		<-over
		mu.Lock()
		defer mu.Unlock()
		return trace
	}
}

// during returns, between the first sample at or after win.Start and the
// last at or before win.End (the window less at most a sampling interval
// at each end), the usage of the traced CPUs and the CPU-seconds the
// worker used.
func during(t *testing.T, trace []stampedSample, win results.Window) (results.CPUUsage, float64) {
	t.Helper()
	i := slices.IndexFunc(trace, func(s stampedSample) bool { return !s.at.Before(win.Start) })
	j := len(trace) - 1
	for j >= 0 && trace[j].at.After(win.End) {
		j--
	}
	if i < 0 || j <= i || trace[j].at.Sub(trace[i].at) < win.Length()/2 {
		t.Fatalf("the CPU trace (%d samples) does not cover the window %v", len(trace), win)
	}
	if trace[i].worker < 0 || trace[j].worker < 0 {
		t.Fatalf("the worker's CPU time was not read at the window's ends")
	}
	return trace[i].cpus.Usage(trace[j].cpus, trace[j].at.Sub(trace[i].at)), trace[j].worker - trace[i].worker
}

// startLoop starts a shell busy loop pinned to cpu at the given nice
// value, in its own process group, killed when the test ends. It returns
// its pid.
func startLoop(t *testing.T, cpu, nice int) int {
	t.Helper()
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := pinning.Start(cmd, pinning.Set{cpu}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, cmd.Process.Pid, nice); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// clientBoundRun runs one group pinned to client against nginx with the
// given certificate pinned to CPU 0, tracing the group's CPUs and its
// worker's CPU time every 10 ms, and returns the repetition, what the
// test traced over the window (the CPUs' usage and the worker's
// CPU-seconds) and the run's text report.
func clientBoundRun(t *testing.T, cert string, client []int, conns int) (*results.Run, results.CPUUsage, float64, string) {
	t.Helper()
	ng := nginxtest.Start(t, nginxtest.Config{Cert: cert, CPUs: "0"})
	p := plan(ng.Addr, time.Second, client)
	p.Load.Groups[0].Connections = conns
	opts := testOptions(t, "1")
	var worker atomic.Int64
	opts.hooks.workerStart = func(_, pid int) { worker.Store(int64(pid)) }
	stop := traceCPUs(t, client, &worker)
	run, err := Run(context.Background(), p, opts)
	trace := stop()
	if err != nil {
		t.Fatal(err)
	}
	rep := &run.Variants[0].Reps[0]
	g := &rep.Groups[0]
	if g.CPU == nil || g.Process == nil || g.Wait == nil || rep.ServerCPU == nil {
		t.Fatalf("CPU not measured: client CPUs %+v, worker %+v, wait %+v, server %+v", g.CPU, g.Process, g.Wait, rep.ServerCPU)
	}
	traced, own := during(t, trace, g.Window)
	var b strings.Builder
	if err := render.WriteText(&b, analysis.Analyze(run)); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d req/s; client CPUs %s %.0f %% busy (traced %.0f %%), the worker's own %.0f %% (traced %.2f s of %.2f s), waited %.2f s; server %.0f %% of CPUs %s; others %+v",
		int(rep.Total.Rate()), g.CPU.CPUs, 100*g.CPU.Busy, 100*traced.Busy, 100*g.Process.Busy, own, g.Window.Length().Seconds(),
		g.Wait.Seconds, 100*rep.ServerCPU.Busy, rep.ServerCPU.CPUs, g.Others)
	// The runner read the same CPUs and process over the same window as
	// the trace (whose ends lie up to 10 ms inside it; 10 ms ticks).
	window := g.Window.Length().Seconds()
	if d := g.CPU.Busy - traced.Busy; d < -0.1 || d > 0.1 {
		t.Errorf("group CPUs %.2f busy, the test traced %.2f over the same window", g.CPU.Busy, traced.Busy)
	}
	if d := g.Process.Seconds - own; d < -0.05-0.05*window || d > 0.05+0.05*window {
		t.Errorf("the worker's own CPU %.2f s, the test traced %.2f s over the same window", g.Process.Seconds, own)
	}
	return run, traced, own, b.String()
}

// named reports whether one of others is pid with the command name comm.
func named(others []results.ProcessCPU, pid int, comm string) bool {
	return slices.ContainsFunc(others, func(o results.ProcessCPU) bool { return o.PID == pid && o.Comm == comm })
}

// TestClientBound: CLIENT-BOUND rests on what kaeload itself used of its
// group's CPUs (its worker's own CPU time), never on the CPUs' busy time,
// which other processes share; those get an OTHER LOAD warning of their
// own that names them. Against real nginx pinned to CPU 0:
//   - a busy loop at nice 19 pinned to the client's CPU keeps it 100 %
//     busy against a server-bound run (RSA-4096 signing): no
//     CLIENT-BOUND, and OTHER LOAD names the loop (pid, sh, nice 19);
//   - the client pinned to the server's CPU: the CPU is busy with nginx;
//     the record names it among the group's other processes, and the
//     report reads "client and server share CPU 0" (SHARED CPUS), never
//     OTHER LOAD naming the server; not client-bound;
//   - kaeload alone against a cheap server (ECDSA P-256) saturates its
//     CPU (its workers' time and the interrupts of its connections) and
//     is flagged.
//
// Other processes may keep any CPU busy, so each verdict is checked
// against what the test traced itself over the same window (the worker's
// own CPU time every 10 ms); a case whose premise the machine does not
// allow (kaeload could not saturate a CPU that others kept busy) is
// skipped with the figures.
func TestClientBound(t *testing.T) {
	endToEndOnce(t, "who used the client's CPU")
	needCPUs(t, 2)
	t.Run("nice 19 loop beside a server-bound client", func(t *testing.T) {
		loop := startLoop(t, 1, 19)
		run, traced, own, text := clientBoundRun(t, "rsa4096", []int{1}, 8)
		rep := &run.Variants[0].Reps[0]
		g := &rep.Groups[0]
		window := g.Window.Length().Seconds()
		if traced.Busy < results.ClientBoundBusy {
			t.Errorf("CPU 1 traced %.2f busy with a busy loop pinned there, want at least %.2f", traced.Busy, results.ClientBoundBusy)
		}
		if own >= (results.ClientBoundBusy-0.1)*window {
			// Under -race a handshake costs the client several times more.
			testkit.SkipBusy(t, "kaeload itself used %.2f CPU-s of the %.2f s window: the server is not clearly the bottleneck here", own, window)
		}
		if b := groupsOf(analysis.AnalyzeRep(rep).ClientBound); len(b) > 0 || strings.Contains(text, "CLIENT-BOUND:") {
			t.Errorf("flagged client-bound (groups %v) while kaeload used %.2f of %.2f CPU-s:\n%s", b, own, window, text)
		}
		if got := groupsOf(analysis.AnalyzeRep(rep).OtherLoad); !slices.Equal(got, []int{0}) {
			t.Errorf("OtherLoad() = %v, want [0]: other processes kept CPU 1 %.0f %% busy", got, 100*(traced.Busy-own/window))
		}
		if !named(g.Others, loop, "sh") {
			loopSec, err := processSeconds(loop)
			if err == nil && len(g.Others) == results.OthersListed && g.Others[len(g.Others)-1].Seconds >= loopSec/2 {
				testkit.SkipBusy(t, "other processes pinned to CPU 1 outranked the loop (pid %d): %+v", loop, g.Others)
			}
			t.Fatalf("the loop (pid %d) is not among the named other processes %+v", loop, g.Others)
		}
		want := fmt.Sprintf("sh (pid %d, nice 19, CPUs 1)", loop)
		if !strings.Contains(text, "OTHER LOAD: ") || !strings.Contains(text, want) {
			t.Errorf("the text report does not name the loop as %q:\n%s", want, text)
		}
		analysis.Annotate(run)
		if !slices.ContainsFunc(run.Warnings.Strings(), func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("run.Warnings do not name the loop: %q", run.Warnings)
		}
	})
	t.Run("client on the server's CPU", func(t *testing.T) {
		run, _, own, text := clientBoundRun(t, "rsa2048", []int{0}, 8)
		rep := &run.Variants[0].Reps[0]
		g := &rep.Groups[0]
		window := g.Window.Length().Seconds()
		if own >= (results.ClientBoundBusy-0.1)*window {
			testkit.SkipBusy(t, "kaeload itself used %.2f CPU-s of the %.2f s window beside nginx", own, window)
		}
		if b := groupsOf(analysis.AnalyzeRep(rep).ClientBound); len(b) > 0 {
			t.Errorf("flagged client-bound while kaeload used %.2f of %.2f CPU-s", own, window)
		}
		if !slices.ContainsFunc(g.Others, func(o results.ProcessCPU) bool { return o.Comm == "nginx" && o.CPUs == "0" }) {
			t.Errorf("nginx, pinned to CPU 0 and busy signing, is not among the named other processes: %+v", g.Others)
		}
		if !strings.Contains(text, "SHARED CPUS: client and server share CPU 0 (group 0 (CPUs 0))") {
			t.Errorf("the text report does not say that client and server share CPU 0:\n%s", text)
		}
		if s := rep.ServerCPUs; s == nil {
			t.Errorf("the server's CPUs not recorded")
		} else {
			for _, line := range strings.Split(text, "\n") {
				for _, pid := range s.PIDs {
					if strings.Contains(line, "OTHER LOAD") && strings.Contains(line, fmt.Sprintf("nginx (pid %d,", pid)) {
						t.Errorf("OTHER LOAD names the server (pid %d): %s", pid, line)
					}
				}
			}
		}
	})
	t.Run("kaeload alone saturates its CPU", func(t *testing.T) {
		run, traced, own, text := clientBoundRun(t, "ecdsa-p256", []int{1}, 16)
		rep := &run.Variants[0].Reps[0]
		window := rep.Groups[0].Window.Length().Seconds()
		// Its own time and the interrupts of its connections on CPU 1,
		// as the test traced them, counted once as the analysis counts
		// them: at most the CPU's busy time.
		if used := min(own+traced.IRQ, traced.Busy*window); used < (results.ClientBoundBusy+0.03)*window {
			testkit.SkipBusy(t, "kaeload used %.2f CPU-s and interrupts %.2f of the %.2f s window on CPU 1 (%.0f %% busy): other processes left it too little to saturate it here",
				own, traced.IRQ, window, 100*traced.Busy)
		}
		if b := groupsOf(analysis.AnalyzeRep(rep).ClientBound); !slices.Equal(b, []int{0}) {
			t.Errorf("ClientBound() = %v, want [0]: kaeload used %.2f and interrupts %.2f of %.2f CPU-s", b, own, traced.IRQ, window)
		}
		if !strings.Contains(text, "CLIENT-BOUND: kaeload used ") {
			t.Errorf("the text report does not say CLIENT-BOUND:\n%s", text)
		}
	})
}

// groupsOf is the indexes of the groups a ClientBound or OtherLoad note names; nil for a zero note.
func groupsOf(n notes.Note) []int {
	var out []int
	for _, g := range n.N("groups") {
		out = append(out, g.Args["index"].(int))
	}
	return out
}
