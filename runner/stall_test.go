package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// TestStallNginx stops nginx's worker (SIGSTOP) for 1.5 s inside a 4 s
// window, then continues it (SIGCONT), and reads the timeline (250 ms
// intervals): the stall takes 6 or 7 of the window's 16 intervals, so
// the window's median rate is still that of a running server.
//
// The stop comes by state, not by the clock: once the timeline holds the
// window's first interval (the controller has received it from the
// worker), so the window has begun and the stop lies inside it.
//
// A stopped nginx completes nothing: an interval that lies entirely
// inside the stop holds at most one response per connection (one that
// had reached the client's socket before the stop), "near zero"; an
// interval that does not touch the stop holds more. The stalled
// intervals (near zero) must therefore be those the test stopped, within
// one interval at each end: the interval in which the stop fell holds
// the requests completed before it, and the one in which SIGCONT fell
// those completed after, so each is stalled or not depending on where in
// it the signal fell (the client's and the test's clocks are one here).
func TestStallNginx(t *testing.T) {
	endToEndOnce(t, "a server stopped mid-window, in the right intervals")
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0"})
	// nginx listens before its master forks the worker: wait for it.
	var workers []int
	for deadline := time.Now().Add(10 * time.Second); len(workers) == 0 && time.Now().Before(deadline); workers = ng.PIDs()[1:] {
		time.Sleep(5 * time.Millisecond)
	}
	if len(workers) == 0 {
		t.Fatal("nginx has no worker process after 10 s")
	}
	signal := func(sig syscall.Signal) {
		for _, pid := range workers {
			if err := syscall.Kill(pid, sig); err != nil {
				t.Errorf("signal %v to nginx worker %d: %v", sig, pid, err)
			}
		}
	}
	t.Cleanup(func() { signal(syscall.SIGCONT) }) // before nginx's own cleanup stops it
	p := plan(ng.Addr, 4*time.Second, []int{1})
	p.Load.Interval = 250 * time.Millisecond
	p.Load.Timeout = 5 * time.Second // longer than the stop
	const stop = 1500 * time.Millisecond
	var stopAt, contAt time.Time
	fired, stalled := make(chan struct{}), make(chan struct{})
	var once sync.Once
	opts := testOptions(t, "1")
	opts.hooks.interval = func(group int, iv results.IntervalSample) {
		if iv.K < 0 {
			return
		}
		once.Do(func() {
			close(fired)
			go func() {
				defer close(stalled)
				signal(syscall.SIGSTOP)
				stopAt = time.Now()
				time.Sleep(stop) // the stall itself
				signal(syscall.SIGCONT)
				contAt = time.Now()
			}()
		})
	}
	run, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case <-fired:
		<-stalled
	default:
		t.Fatal("the window's first interval never reached the controller: nginx was not stopped")
	}
	rep := run.Variants[0].Reps[0]
	start := rep.Total.Window.Start
	s, c := stopAt.Sub(start), contAt.Sub(start)
	if s < 0 || c > rep.Total.Window.Length() {
		t.Fatalf("stopped from %s to %s of a %s window: not inside it (the window's first interval reached the controller that late)", s, c, rep.Total.Window.Length())
	}
	slots := uint64(p.Load.Groups[0].Connections)
	var got []string
	first, last := -1, -1 // the stalled intervals' first and last index
	sIdx, cIdx := -1, -1  // the intervals in which the stop and the continue fell
	for i, pt := range rep.Timeline.Window() {
		near := pt.Requests <= slots
		if near {
			if first < 0 {
				first = i
			}
			last = i
		}
		if pt.Start <= s && s < pt.End() {
			sIdx = i
		}
		if pt.Start <= c && c < pt.End() {
			cIdx = i
		}
		inside := pt.Start >= s && pt.End() <= c
		apart := pt.End() <= s || pt.Start >= c
		got = append(got, fmt.Sprintf("%d:%d", i, pt.Requests))
		switch {
		case inside && !near:
			t.Errorf("interval %d (%s to %s), inside the stop (%s to %s): %d requests, want at most %d (one per connection)", i, pt.Start, pt.End(), s, c, pt.Requests, slots)
		case apart && near:
			t.Errorf("interval %d (%s to %s), apart from the stop (%s to %s): %d requests, want more than %d", i, pt.Start, pt.End(), s, c, pt.Requests, slots)
		}
	}
	t.Logf("stopped %s to %s (intervals %d to %d); requests by interval %s; stalled %d to %d",
		s.Round(time.Millisecond), c.Round(time.Millisecond), sIdx, cIdx, strings.Join(got, " "), first, last)
	if first < 0 {
		t.Fatal("no stalled interval")
	}
	if first != sIdx && first != sIdx+1 {
		t.Errorf("the stall begins in interval %d, want %d (the stop's) or the next", first, sIdx)
	}
	if last != cIdx && last != cIdx-1 {
		t.Errorf("the stall ends in interval %d, want %d (the continue's) or the one before", last, cIdx)
	}
	for i, pt := range rep.Timeline.Window()[first : last+1] {
		if pt.Requests > slots {
			t.Errorf("interval %d, between stalled intervals %d and %d, holds %d requests: the stall is not one run", first+i, first, last, pt.Requests)
		}
	}
	// The analysis names the stall, at those seconds: one stall holds the
	// near-zero intervals (an edge interval below half the median rate is
	// a stall to it too, near zero or not).
	pts := rep.Timeline.Window()
	m := analysis.Analyze(run)
	stalls := m.Reps[0][0].Timeline.Stalls
	if tl := &m.Reps[0][0].Timeline; !tl.StallsJudged {
		// A machine too busy to give the window enough requests per
		// interval leaves the stall rule nothing to judge by, and it says
		// so (tested in diagnosis): the timeline above showed the stall.
		testkit.SkipBusy(t, "stalls not judged on this window (%s): the machine gave it too few requests per interval", strings.Join(tl.Unjudged.Strings(), "; "))
	}
	if !slices.ContainsFunc(m.Diagnoses, func(d diagnosis.Diagnosis) bool { return d.Rule == diagnosis.RuleStalls }) {
		t.Fatalf("diagnoses %+v: want the stall named", m.Diagnoses)
	}
	// One stall holds the stop, not split. A busy machine may slow other
	// intervals too: a stall may then reach past the stop's intervals, or
	// another stall appear, but only over intervals really below half the
	// median (their own rate): company, not an error of the rule.
	var held []diagnosis.Stall
	for _, st := range stalls {
		if st.Start < pts[last].End() && st.End > pts[first].Start {
			held = append(held, st)
		}
		for _, pt := range pts {
			out := pt.End() <= pts[sIdx].Start || pt.Start >= pts[cIdx].End()
			if out && pt.Start >= st.Start && pt.End() <= st.End && pt.Rate() >= st.Median/2 {
				t.Errorf("the stall %s to %s holds interval %s to %s at %.1f req/s, outside the stop and not below half the median %.1f", st.Start, st.End, pt.Start, pt.End(), pt.Rate(), st.Median)
			}
		}
	}
	if len(held) != 1 {
		t.Fatalf("stalls %+v: want one over the stopped intervals %d to %d", stalls, first, last)
	}
	st := held[0]
	t.Logf("the analysis's stalls: %+v", stalls)
	if st.Start > pts[first].Start || st.End < pts[last].End() {
		t.Errorf("the analysis's stall %s to %s, want it to hold intervals %d to %d (%s to %s)",
			st.Start, st.End, first, last, pts[first].Start, pts[last].End())
	}
}
