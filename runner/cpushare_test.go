package runner

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
)

// TestSharedCPUsCountedOnce runs four groups all pinned to CPU 1 against
// nginx on CPU 0. The client's CPU time is that of one CPU at most,
// counted once, not once per group: each group measures CPU 1 over the
// same window, so the run's client CPU equals any one group's reading and
// cannot exceed the window. Summing the groups' readings (the old
// behaviour) gives up to four times the window. kaeload's own time, the
// four worker processes' rusage summed, fits inside the CPU's busy time,
// and it is what each group counts as kaeload's share of CPU 1: no worker
// names a sibling among the other processes on its CPU.
func TestSharedCPUsCountedOnce(t *testing.T) {
	endToEndOnce(t, "CPU time of groups sharing a CPU")
	needCPUs(t, 2)
	const groups = 4
	var cpus [][]int
	for range groups {
		cpus = append(cpus, []int{1})
	}
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0"})
	p := plan(ng.Addr, 1500*time.Millisecond, cpus...)
	opts := testOptions(t, "1")
	var mu sync.Mutex
	var workers []int
	opts.hooks.workerStart = func(_, pid int) {
		mu.Lock()
		workers = append(workers, pid)
		mu.Unlock()
	}
	run, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep := &run.Variants[0].Reps[0]
	window := rep.Total.Window.Length().Seconds()
	c := analysis.RepClientCPU(rep)
	if c.Measured != groups || c.ProcessMeasured != groups {
		t.Fatalf("measured %d groups' CPUs and %d processes, want %d each", c.Measured, c.ProcessMeasured, groups)
	}
	// Each group reads CPU 1 between its two samples, which a loaded
	// machine may take a little after the window's ends: the longest
	// such interval bounds what one CPU can have been busy. Each worker's
	// share of it (Process.Busy) is over its own interval too.
	var sum, hi, interval, shares float64
	for _, g := range rep.Groups {
		sum += g.CPU.Seconds
		hi = max(hi, g.CPU.Seconds)
		if g.CPU.Busy > 0 {
			interval = max(interval, g.CPU.Seconds/g.CPU.Busy)
		}
		shares += g.Process.Busy
		if g.Process.Seconds <= 0 {
			t.Errorf("group %d: worker used %.3f CPU-s in the window, want > 0", g.Index, g.Process.Seconds)
		}
	}
	us, own, ok := c.PerRequest(rep.Total.Requests)
	t.Logf("%d requests in %.2f s; CPU 1 busy %.2f s (groups' readings summed: %.2f s); the workers' own %.2f s; %.1f µs per request (own %v)",
		rep.Total.Requests, window, c.Seconds, sum, c.Process, us, own)
	// /proc/stat counts 10 ms ticks: allow 10 % and a few.
	if c.Seconds > 1.1*interval+0.05 {
		t.Errorf("client CPU %.2f s over a %.2f s window (read over %.2f s) on one CPU: CPU 1 counted more than once", c.Seconds, window, interval)
	}
	if math.Abs(c.Seconds-hi) > 0.1+0.05*hi {
		t.Errorf("client CPU %.2f s, the busiest group read %.2f s of the same CPU", c.Seconds, hi)
	}
	if c.Process > c.Seconds+0.1 {
		t.Errorf("the workers used %.2f CPU-s, more than CPU 1 was busy (%.2f s)", c.Process, c.Seconds)
	}
	// Every group counts all four workers as kaeload's, not its own one
	// alone (a quarter of it).
	for _, gc := range analysis.RepGroupCPUs(rep) {
		if want := min(shares, 1); !gc.Own || math.Abs(gc.Kaeload-want) > 0.01 {
			t.Errorf("group %d: kaeload's share of CPU 1 %.3f (measured %v), want the four workers' %.3f (%.2f CPU-s over the %.2f s window)", gc.Index, gc.Kaeload, gc.Own, want, c.Process, window)
		}
	}
	for _, g := range rep.Groups {
		for _, o := range g.Others {
			if slices.Contains(workers, o.PID) {
				t.Errorf("group %d names worker %d (%s) among the other processes on its CPU", g.Index, o.PID, o.Comm)
			}
		}
	}
	if !ok || !own || rep.Total.Requests == 0 {
		t.Fatalf("PerRequest: ok %v own %v with %d requests", ok, own, rep.Total.Requests)
	}
	var b strings.Builder
	if err := render.WriteText(&b, analysis.Analyze(run)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), " µs per request") {
		t.Errorf("text report lacks the client's µs per request:\n%s", b.String())
	}
}

// TestTLS12HintNginx runs against nginx that speaks TLS 1.2 only: the
// engine records every handshake as TLS 1.2, and with a ClientHello that
// offered TLS 1.3 too the run's report carries the max_version hint; with
// max_version 1.2 it does not.
func TestTLS12HintNginx(t *testing.T) {
	endToEndOnce(t, "the TLS 1.2 hint against nginx")
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0", Protocols: "TLSv1.2"})
	for _, tc := range []struct {
		name     string
		max      uint16
		wantHint bool
	}{
		{"TLS 1.3 offered", tls.VersionTLS13, true},
		{"max_version 1.2", tls.VersionTLS12, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(ng.Addr, time.Second, []int{1})
			p.Target.TLS.MaxVersion = tc.max
			run, _ := runLogged(t, p)
			enc, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			run.Plan = enc
			total := run.Variants[0].Reps[0].Total
			if total.Handshakes == 0 {
				t.Fatalf("no handshakes completed")
			}
			for key := range total.Negotiated {
				if !strings.HasPrefix(key, "TLS1.2 ") {
					t.Errorf("negotiated %q against a TLS 1.2-only server", key)
				}
			}
			var b strings.Builder
			if err := render.WriteText(&b, analysis.Analyze(run)); err != nil {
				t.Fatal(err)
			}
			hint := strings.Contains(b.String(), `HINT: variant default: every handshake negotiated TLS 1.2`)
			if hint != tc.wantHint {
				t.Errorf("hint in the text report %v, want %v:\n%s", hint, tc.wantHint, b.String())
			}
		})
	}
}
