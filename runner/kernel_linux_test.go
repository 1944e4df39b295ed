//go:build linux

package runner

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/render"
)

// tcpRead is a snapshot of kernel TCP counters and when it was taken.
type tcpRead struct {
	at time.Time
	s  cpustat.TCPSnapshot
}

// listeningCheck is how the kernel's TCP counters of a quiet namespace
// grow from before Run to the timeline's first reading: by the one
// connection of the controller's check that the target listens
// (server.Listening, before the first repetition), opened and closed at
// once, and nothing else.
var listeningCheck = map[string]uint64{"ActiveOpens": 1, "PassiveOpens": 1}

// TestAcceptQueueOverflow runs, in a network namespace of its own where
// nothing else runs, nginx (one worker, CPU 0) with a listen backlog of 8
// against 512 connections from a group on CPU 1, and the same with a
// backlog of 4096.
//
// The counters: the test reads /proc/net/netstat and /proc/net/snmp
// before and after the run, and sees (a test hook) every reading the
// timeline takes. Nothing else runs in the namespace, so the accounting
// is exact, counter by counter:
//
//   - from the test's reading before the run to the timeline's first,
//     taken before the load, exactly the controller's check that the
//     target listens (listeningCheck);
//   - from the timeline's first reading to its last, taken at the
//     window's end, exactly the sum of the timeline's deltas over every
//     point, warm-up included: ListenOverflows, ListenDrops,
//     TCPSynRetrans, ActiveOpens and PassiveOpens as every other;
//   - after the window's end, what belongs to no interval: the workers
//     stopping their connections, SYN-ACKs of handshakes left in the
//     queue retransmitted, nginx draining its queue. The test's reading
//     after the run may only be higher than the last.
//
// With backlog 8 the accept queue overflows: 512 connects at once fill
// it whatever the machine's load (more load on nginx's CPU only
// overflows it more), and the connects that lose their SYN wait for its
// retransmit. With 4096, more than the 512 connections there ever are,
// it cannot: ListenOverflows stays 0, after the run too. Client and
// server share the namespace: the record has one host, shared.
//
// The live display (the same runs' progress bars) names the overflow
// with the count over the window, as the timeline has it, and the
// repetition's closing line names it too; the large backlog's names none.
func TestAcceptQueueOverflow(t *testing.T) {
	endToEndOnce(t, "the kernel's TCP counters of real overflows (the readings' code is raced by TestRunBuiltin)")
	needCPUs(t, 2)
	nginxtest.Binary(t)
	for _, tc := range []struct {
		backlog  int
		overflow bool
	}{{8, true}, {4096, false}} {
		t.Run(fmt.Sprintf("backlog %d", tc.backlog), func(t *testing.T) { overflowCase(t, tc.backlog, tc.overflow) })
	}
}

// overflowCase is a case of TestAcceptQueueOverflow, each in a network
// namespace of its own: the handshakes one leaves in the kernel must not
// count in the next.
func overflowCase(t *testing.T, backlog int, overflow bool) {
	if !testkit.InPrivateNetns(t) {
		return
	}
	tc := struct {
		backlog  int
		overflow bool
	}{backlog, overflow}
	{
		ng := nginxtest.Start(t, nginxtest.Config{CPUs: "0", Backlog: tc.backlog})
		p := plan(ng.Addr, time.Second, []int{1})
		p.Load.Groups[0].Connections = 512
		p.Load.Interval = 250 * time.Millisecond
		p.Load.Timeout = 5 * time.Second // connects wait 1 s, 3 s for a lost SYN's retransmits
		p.MaxErrors = 1                  // errors are not what this test is about
		opts := testOptions(t, "1")
		progress := &testkit.LockedBuffer{}
		opts.Progress, opts.ProgressMode = progress, ProgressOn
		var mu sync.Mutex
		var reads []tcpRead
		opts.hooks.tcpRead = func(host string, s cpustat.TCPSnapshot) {
			mu.Lock()
			reads = append(reads, tcpRead{time.Now(), s})
			mu.Unlock()
		}
		before := cpustat.ReadTCPCounters()
		run, err := Run(context.Background(), p, opts)
		after := cpustat.ReadTCPCounters()
		if err != nil {
			t.Fatalf("backlog %d: Run: %v", tc.backlog, err)
		}
		rep := run.Variants[0].Reps[0]
		tl := rep.Timeline
		mu.Lock()
		first, last := reads[0], reads[len(reads)-1]
		mu.Unlock()
		if len(tl.Hosts) != 1 || !tl.Hosts[0].Shared || !tl.Hosts[0].Client || !tl.Hosts[0].Server || tl.Hosts[0].Name != localHost {
			t.Fatalf("backlog %d: TCP hosts %+v, want one, %s, client and server shared (counted once)", tc.backlog, tl.Hosts, localHost)
		}
		if win := rep.Total.Window; last.at.Before(win.End) {
			t.Errorf("backlog %d: the last reading at %s, before the window's end %s", tc.backlog, last.at.Format(time.StampMicro), win.End.Format(time.StampMicro))
		}
		var window uint64 // ListenOverflows over the window's intervals
		for _, name := range cpustat.TCPCounterNames {
			b, ok1 := before.Get(name)
			f, ok2 := first.s.Get(name)
			l, ok3 := last.s.Get(name)
			a, ok4 := after.Get(name)
			if !ok1 || !ok2 || !ok3 || !ok4 {
				t.Errorf("backlog %d: %s not available: %v %v %v %v", tc.backlog, name, ok1, ok2, ok3, ok4)
				continue
			}
			var sum uint64
			for i, pt := range tl.Points {
				n, ok := tl.TCP(i, 0, name)
				if !ok {
					t.Errorf("backlog %d: point %d: %s not available", tc.backlog, i, name)
				}
				sum += n
				if name == "ListenOverflows" && pt.Start >= 0 {
					window += n
				}
			}
			t.Logf("backlog %4d: %-20s /proc: %d before the timeline, %6d over it, %5d after the window's end; the timeline's points: %6d", tc.backlog, name, f-b, l-f, a-l, sum)
			if want := b + listeningCheck[name]; f != want {
				t.Errorf("backlog %d: %s is %d at the timeline's first reading, %d at the test's before the run: want %d (the controller's check that the target listens, then nothing)", tc.backlog, name, f, b, want)
			}
			if sum != l-f {
				t.Errorf("backlog %d: %s grew by %d over the timeline's points, by %d in /proc from the timeline's first reading to the window's end", tc.backlog, name, sum, l-f)
			}
			if a < l {
				t.Errorf("backlog %d: %s went down from %d at the window's end to %d after the run", tc.backlog, name, l, a)
			}
		}
		lo := func(s cpustat.TCPSnapshot) uint64 { v, _ := s.Get("ListenOverflows"); return v }
		var perPoint []string
		for i, pt := range tl.Points {
			n, _ := tl.TCP(i, 0, "ListenOverflows")
			perPoint = append(perPoint, fmt.Sprintf("%s: %d", pt.Start, n))
		}
		t.Logf("backlog %d: ListenOverflows by interval: %s", tc.backlog, strings.Join(perPoint, ", "))
		out := progress.String()
		t.Logf("backlog %d: %d requests, errors %+v; progress:\n%s", tc.backlog, rep.Total.Requests, rep.Total.Errors, out)
		if !tc.overflow {
			if n := lo(after) - lo(before); n != 0 {
				t.Errorf("backlog %d: %d listen overflows with at most 512 connections", tc.backlog, n)
			}
			if strings.Contains(out, "listen overflows") {
				t.Errorf("backlog %d: the progress display names listen overflows:\n%s", tc.backlog, out)
			}
			return
		}
		if n := lo(last.s) - lo(before); n == 0 {
			t.Fatalf("backlog %d: no listen overflow with 512 connections", tc.backlog)
		}
		if window == 0 {
			t.Fatalf("backlog %d: no listen overflow in the window (only in the warm-up)", tc.backlog)
		}
		// The run's own: its listener's drops, read at every boundary,
		// make the overflow a diagnosis (TestForeignOverflow's twin).
		m := analysis.Analyze(run)
		if l := m.Reps[0][0].Timeline.Listener; !l.Measured() || l.Drops == 0 {
			t.Errorf("backlog %d: the target's listener %+v: want read, with drops", tc.backlog, l)
		}
		if !slices.ContainsFunc(m.Diagnoses, func(d diagnosis.Diagnosis) bool { return d.Rule == diagnosis.RuleAcceptQueue }) {
			t.Errorf("backlog %d: diagnoses %+v, host only %+v: want an accept-queue overflow", tc.backlog, m.Diagnoses, m.HostOnly)
		}
		words := "listen overflows " + format.Count(window)
		if !regexp.MustCompile(`(?m)^kernel +client\+server: ` + words + `\b`).MatchString(out) {
			t.Errorf("backlog %d: the progress bars do not name %q on their kernel line", tc.backlog, words)
		}
		if !regexp.MustCompile(`(?m): done, .*; kernel client\+server: ` + words + `\b`).MatchString(out) {
			t.Errorf("backlog %d: the closing line does not name %q", tc.backlog, words)
		}
	}
}

// TestForeignOverflow is TestAcceptQueueOverflow's twin with the
// overflow someone else's: in a network namespace of its own, nginx with
// a backlog of 4096 (its queue cannot overflow) is measured for 1 s while
// another program's listen(1) socket that never accepts receives 100
// connects a second (testkit.ForeignListener) and overflows. The
// namespace's ListenOverflows grow in the window, but the target's own
// listener, read at every boundary, never fills: no queue diagnosis, the
// threshold "diagnoses" does not count it, listen_overflows is 0, and the
// report names the counter on the host, not attributable to the run. The
// foreign connects show as other traffic in the namespace.
func TestForeignOverflow(t *testing.T) {
	endToEndOnce(t, "the kernel's TCP counters of a real foreign overflow")
	needCPUs(t, 2)
	nginxtest.Binary(t)
	if !testkit.InPrivateNetns(t) {
		return
	}
	ng := nginxtest.Start(t, nginxtest.Config{CPUs: "0", Backlog: 4096})
	p := plan(ng.Addr, time.Second, []int{1})
	// Two intervals: too few for the rate rules (stalls, not steady),
	// which a busy machine could trip, so that every diagnosis would be
	// the kernel counters'.
	p.Load.Interval = 500 * time.Millisecond
	foreign := testkit.ForeignListener(t, 100, 2*time.Second) // beyond the window's end: its SYNs are retried after it too
	run, err := Run(context.Background(), p, testOptions(t, "1"))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	run.Thresholds = []results.Threshold{{Expr: "diagnoses == 0", Metric: results.MetricDiagnoses, Op: "==", Value: 0},
		{Expr: "listen_overflows == 0", Metric: results.MetricListenOverflows, Op: "==", Value: 0}}
	m := analysis.Analyze(run)
	tl := &m.Reps[0][0].Timeline
	var host uint64
	for i := range tl.Hosts {
		v, _, _ := tl.Hosts[i].Get("ListenOverflows")
		host += v
	}
	t.Logf("%d foreign connects; host ListenOverflows +%d over the window; listener %+v; traffic %+v", foreign.Connects, host, tl.Listener, tl.Traffic)
	if host == 0 {
		t.Fatal("the foreign listener did not overflow in the window: the test shows nothing")
	}
	// Its queue never filled, nor came near it. Its drops are not
	// bounded here: the listener's drop counter also counts the
	// retransmitted SYNs and ACKs the kernel discards for a connection
	// it already holds, which a loaded machine's retransmits bring (CI
	// saw 1, then 4, in about 1,100 connects). Whether they were an
	// overflow is the diagnosis's to say, below: a queue nothing could
	// fill did not overflow.
	if l := tl.Listener; !l.Measured() || l.Full != 0 || l.MaxQueue >= l.Backlog/2 {
		t.Errorf("the target's listener %+v: want read, never full, its longest queue under half its backlog", l)
	}
	// The run's own diagnoses may hold what a loaded machine does to
	// the rate, but nothing of the queues.
	for _, d := range m.Diagnoses {
		if d.Rule == diagnosis.RuleAcceptQueue || d.Rule == diagnosis.RuleSYNCookies {
			t.Errorf("diagnosis %+v, want no queue diagnosis", d)
		}
	}
	if len(m.Thresholds) != 2 {
		t.Errorf("threshold checks %+v, want 2", m.Thresholds)
	}
	for _, c := range m.Thresholds {
		if c.Threshold.Metric == results.MetricDiagnoses {
			if c.Value != float64(len(m.Diagnoses)) {
				t.Errorf("threshold %q counted %v, want the run's %d diagnoses", c.Threshold.Expr, c.Value, len(m.Diagnoses))
			}
		} else if !c.Passed {
			t.Errorf("threshold %q crossed: %+v", c.Threshold.Expr, c)
		}
	}
	if len(m.HostOnly) != 1 || m.HostOnly[0].Rule != diagnosis.RuleAcceptQueue {
		t.Fatalf("host-only changes %+v, want the accept-queue overflow", m.HostOnly)
	}
	var text strings.Builder
	if err := render.WriteText(&text, m); err != nil {
		t.Fatal(err)
	}
	if want := "NOT THE RUN'S: default, repetition 1: no accept-queue overflow: ListenOverflows +" + format.Count(host); !strings.Contains(text.String(), want) ||
		!strings.Contains(text.String(), diagnosis.NotTheRun) {
		t.Errorf("the text report does not say %q … %q:\n%s", want, diagnosis.NotTheRun, text.String())
	}
	if len(tl.Traffic) != 1 || !tl.Traffic[0].Shared {
		t.Errorf("traffic %+v: want other traffic in the namespace", tl.Traffic)
	}
}
