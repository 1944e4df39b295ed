package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestServerCPUsNginx runs against nginx pinned to CPU 0 with the client
// on CPU 1 and one connection whose requests nginx paces to 100 a second
// (limit_req with a burst delays, on a timer, the request that comes too
// soon: the server waits without using its CPU), in 1 s windows, two
// variants: "busy-loop",
// whose start command runs a busy loop at nice 10 pinned to CPU 0 (it
// stops by itself after 10 s, and the variant's stop command ends it),
// and its twin "quiet" without it. Then once with 8 connections.
//
// The loop is named OTHER LOAD on the server, in the variant's notes;
// the server's own processes, kaeload's workers and this process are
// never named among the others; the record holds the server's CPUs (its
// affinity: CPU 0). With one connection and CPUs 0 and 1 not taken by
// others, the quiet variant is NOT SATURATED, its rate Little's law's (1
// / mean latency), and the server_saturated threshold is crossed; with 8
// connections, unpaced, it is not NOT SATURATED. Unpaced, one connection
// kept the server busy enough on CI's machine (CPU 0 81 % busy: the
// server 75 %, interrupts 12 %) that whether it saturated was the
// machine's to say, not the test's. What other processes of this
// machine do to CPU 0 meanwhile (other test binaries) is judged too:
// the assertions that depend on CPU 0 being free are implications from
// the record (no other load there, so …), never assumptions.
func TestServerCPUsNginx(t *testing.T) {
	endToEndOnce(t, "the server's CPUs against nginx")
	needCPUs(t, 2)
	// The key is the query's "paced": requests without it are not limited.
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0",
		HTTP:     "limit_req_zone $arg_paced zone=paced:1m rate=100r/s;",
		Location: "limit_req zone=paced burst=10;"})
	pidFile := filepath.Join(t.TempDir(), "loop.pid")
	p := plan(ng.Addr, time.Second, []int{1})
	p.Target.URL += "?paced=1"
	p.Target.Request = closeRequest("/index.html?paced=1")
	p.Load.Groups[0].Connections = 1
	p.Server = &plans.Server{Host: "local", CommandTimeout: 5 * time.Second,
		Ready: plans.Ready{Kind: "tcp", Addr: ng.Addr, Interval: 20 * time.Millisecond, Timeout: 5 * time.Second}}
	p.Variants = []plans.Variant{{Name: "quiet", Start: "true"}, {Name: "busy-loop",
		Start: fmt.Sprintf(`nice -n 10 taskset -c 0 timeout 10 sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo $! > %s`, pidFile),
		Stop:  fmt.Sprintf(`kill $(cat %s)`, pidFile)}}
	p.Thresholds = []results.Threshold{{Expr: "server_saturated == true", Metric: results.MetricServerSaturated, Op: "==", Value: 1}}
	run, log := runLogged(t, p)
	m := analysis.Analyze(run)
	isLoop := func(o results.ProcessCPU) bool { return o.Comm == "sh" && o.Nice == 10 && o.CPUs == "0" }
	for i := range run.Variants {
		v := &run.Variants[i]
		rep := &v.Reps[0]
		ra := &m.Reps[i][0]
		s := rep.ServerCPUs
		if s == nil || s.Busy == nil || rep.ServerCPU == nil {
			t.Fatalf("%s: server's CPUs %+v, server CPU %+v: not measured\n%s", v.Name, s, rep.ServerCPU, log)
		}
		u := ra.ServerCPUs
		t.Logf("%s: %s; %s; %s", v.Name, ra.ServerOtherLoad, ra.NotSaturated, little(rep, ra.Saturation))
		t.Logf("%s: server's CPUs %s busy %.2f: server %.2f kaeload %.2f interrupts %.2f others %.2f %v", v.Name, u.CPUs, u.Busy, u.Server, u.Kaeload, u.Interrupts, u.Others, u.Top)
		if s.CPUs != "0" {
			t.Errorf("%s: the server's CPUs %q, want its affinity \"0\"", v.Name, s.CPUs)
		}
		for _, o := range s.Others {
			if slices.Contains(s.PIDs, o.PID) || o.Comm == "nginx" && slices.Contains(ng.PIDs(), o.PID) {
				t.Errorf("%s: the server's own process %d (%s) named among the others", v.Name, o.PID, o.Comm)
			}
			if o.PID == os.Getpid() {
				t.Errorf("%s: this process named among the others on the server's CPUs", v.Name)
			}
		}
		// Never a flag without a name: other load is someone's.
		if u.OtherLoad && len(u.Top) == 0 {
			t.Errorf("%s: OTHER LOAD on the server without a process named", v.Name)
		}
		named := slices.ContainsFunc(s.Others, isLoop)
		switch v.Name {
		case "busy-loop":
			if !u.OtherLoad || ra.ServerOtherLoad.IsZero() {
				t.Errorf("busy-loop: no OTHER LOAD on the server (others %.2f of CPU 0)", u.Others)
			}
			// Named, unless the list is full of busier processes.
			if !named && len(s.Others) < results.OthersListed {
				t.Errorf("busy-loop: the nice 10 loop is not among the others named on CPU 0: %+v", s.Others)
			}
			if named && !strings.Contains(ra.ServerOtherLoad.String(), ", nice 10, CPUs 0)") {
				t.Errorf("busy-loop: the line does not name the loop: %s", ra.ServerOtherLoad)
			}
			if n := m.Summary.Variants[i].ServerOtherLoadReps; n != 1 {
				t.Errorf("busy-loop: %d repetitions with OTHER LOAD on the server, want 1", n)
			}
			// And in its verdict's own line (quiet is the baseline).
			if got, want := m.Summary.Variants[i].VerdictCaveat.String(), "shared CPUs: OTHER LOAD on the server's CPUs in 1 of 1 repetitions"; !strings.Contains(got, want) {
				t.Errorf("busy-loop: verdict caveat %q, want %q in it", got, want)
			}
		case "quiet":
			if named {
				t.Errorf("quiet: the loop of the other variant named: %+v", s.Others)
			}
			sat := ra.Saturation
			// Paced, the server and kaeload leave their CPUs mostly
			// idle: only others can keep them busy, and the record
			// then says so.
			if u.Others < results.ServerOtherLoadShare && ra.OtherLoad.IsZero() {
				if !sat.NotSaturated {
					t.Errorf("quiet: one paced connection, CPUs 0 and 1 free of others, the server %.0f %% busy, CPU 0 %.0f %%, the client's %.0f %%: not NOT SATURATED (%+v)", rep.ServerCPU.Busy*100, u.Busy*100, ra.ClientCPU.BusyMax*100, sat)
				}
				if u.OtherLoad || !ra.ServerOtherLoad.IsZero() {
					t.Errorf("quiet: OTHER LOAD on the server: %s", ra.ServerOtherLoad)
				}
			}
			if !sat.LittleAgrees() {
				t.Errorf("quiet: 1 connection / %s = %.1f req/s, measured %.1f: Little's law should hold in a closed loop", sat.MeanLatency, sat.LittleRate, sat.Rate)
			}
			for _, c := range m.Thresholds {
				if c.Variant == "quiet" && c.Passed == sat.NotSaturated {
					t.Errorf("quiet: %s, with NOT SATURATED %v", c.Line(), sat.NotSaturated)
				}
			}
		}
	}
	// Enough connections, unpaced: not NOT SATURATED (the server, or
	// kaeload, busy).
	p = plan(ng.Addr, time.Second, []int{1})
	p.Load.Groups[0].Connections = 8
	run, _ = runLogged(t, p)
	rep := &run.Variants[0].Reps[0]
	ra := analysis.AnalyzeRep(rep)
	sat := ra.Saturation
	cpusBusy, _ := ra.ServerCPUsBusy()
	t.Logf("8 connections: %s; server %+v, CPU 0 %.0f %% busy, client-bound %v", little(rep, sat), rep.ServerCPU, cpusBusy*100, !ra.ClientBound.IsZero())
	// Only when CPU 0 was the server's: other processes there (a busy
	// machine) leave the server short of CPU, the window then measures
	// them, and the record says OTHER LOAD instead.
	if u, ok := analysis.RepServerCPUUse(rep); ok && u.OtherLoad {
		t.Logf("8 connections: not judged here: OTHER LOAD on CPU 0 (others %.0f %%)", u.Others*100)
	} else if !sat.Judged || sat.NotSaturated {
		t.Errorf("8 connections: judged %v, NOT SATURATED %v: %s", sat.Judged, sat.NotSaturated, ra.NotSaturated)
	}
}

// little is Little's law of a repetition, for the log.
func little(rep *results.Rep, s analysis.Saturation) string {
	return fmt.Sprintf("%d connections / %s mean latency = %.1f req/s, measured %.1f", rep.Total.Slots, s.MeanLatency, s.LittleRate, s.Rate)
}

// TestExcludeFlagged runs one window with the client pinned to nginx's
// own CPU 0 (SHARED CPUS, a flag that does not depend on what else the
// machine does) under exclude_flagged: 1. The first window is set aside,
// kept with why, and measured again; the second is flagged too, but the
// allowance is spent, so it counts. Its twin with exclude_flagged: 0
// sets nothing aside.
func TestExcludeFlagged(t *testing.T) {
	endToEndOnce(t, "exclude_flagged against nginx")
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0"})
	for _, allow := range []int{1, 0} {
		p := plan(ng.Addr, 300*time.Millisecond, []int{0})
		p.Load.Warmup = 100 * time.Millisecond
		p.Load.Groups[0].Connections = 2
		p.ExcludeFlagged = allow
		run, log := runLogged(t, p)
		v := &run.Variants[0]
		if len(v.Reps) != 1 || v.Reps[0].Excluded != "" {
			t.Fatalf("exclude_flagged %d: %d repetitions (want 1, in the statistics)\n%s", allow, len(v.Reps), log)
		}
		if !strings.Contains(analysis.AnalyzeRep(&v.Reps[0]).Flagged().String(), "SHARED CPUS: client and server share CPU 0") {
			t.Errorf("exclude_flagged %d: the window is not flagged SHARED CPUS: %q", allow, analysis.AnalyzeRep(&v.Reps[0]).Flagged())
		}
		if got := len(v.Excluded); got != allow {
			t.Fatalf("exclude_flagged %d: %d windows set aside, want %d\n%s", allow, got, allow, log)
		}
		if allow == 1 {
			x := v.Excluded[0]
			if x.Index != 0 || !strings.Contains(x.Excluded, "SHARED CPUS") || x.Total.Requests == 0 {
				t.Errorf("set-aside window: index %d, %d requests, why %q", x.Index, x.Total.Requests, x.Excluded)
			}
			if lines := analysis.Analyze(run).Excluded; len(lines) != 1 || !strings.HasPrefix(lines[0].String(), "variant default rep 1: ") {
				t.Errorf("EXCLUDED lines %q", lines)
			}
		}
	}
}
