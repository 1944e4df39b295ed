package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestOpenLoop: at a rate the slots can easily keep, the engine starts
// exactly the scheduled number of requests in the window, misses none,
// and records every response's latency from its intended start, which is
// never below its latency from the actual start.
func TestOpenLoop(t *testing.T) {
	// Plain http: cheap enough to stay far from the slots' limit even on
	// a loaded machine under -race (the nginx test in runner does TLS).
	srv := httptest.NewServer(http.HandlerFunc(ok))
	t.Cleanup(srv.Close)
	tg := plans.Target{Addr: strings.TrimPrefix(srv.URL, "http://"), Request: []byte(closeRequest)}
	e := newEngine(t, tg, load(plans.Close, 5*time.Second), 64)
	const rate = 100
	if err := e.SetRate(rate); err != nil {
		t.Fatal(err)
	}
	w := window(200*time.Millisecond, time.Second)
	g := run(t, e, w)
	t.Logf("scheduled %d, missed %d, requests %d, errors %d; total p50 %.2f ms, from intended p50 %.2f ms",
		g.Scheduled, g.Missed, g.Requests, g.Errors.Total(),
		float64(g.Latency.Total.ValueAtQuantile(50))/1e3, float64(g.Latency.Intended.ValueAtQuantile(50))/1e3)
	// The window is 1 s of a schedule of 100/s: 100 starts, or 101 when
	// the window's start falls exactly on one.
	if g.Scheduled < rate || g.Scheduled > rate+1 {
		t.Errorf("Scheduled = %d, want %d (1 s at %d/s)", g.Scheduled, rate, rate)
	}
	if g.Missed != 0 {
		t.Errorf("Missed = %d, want 0 (64 slots for 100 starts a second)", g.Missed)
	}
	if g.Errors.Total() != 0 {
		t.Errorf("errors %+v, want none", g.Errors)
	}
	// A request counts when it completes in the window: the count and the
	// starts differ only by the requests in flight at the window's edges,
	// at most rate × the slowest request's time (+1 for rounding) at each.
	edge := int64(float64(rate)*float64(g.Latency.Intended.Max())/1e6) + 1
	if d := int64(g.Requests) - int64(g.Scheduled); d < -edge || d > edge {
		t.Errorf("Requests = %d, Scheduled = %d: want within %d (in flight at an edge)", g.Requests, g.Scheduled, edge)
	}
	checkHistograms(t, g)
	if got, want := g.Latency.Intended.TotalCount(), int64(g.Requests+g.Missed); got != want {
		t.Errorf("Intended histogram holds %d values, want one per request and missed start: %d", got, want)
	}
	if i, a := g.Latency.Intended.Min(), g.Latency.Total.Min(); i < a {
		t.Errorf("fastest from intended start %d µs < fastest from actual start %d µs", i, a)
	}

	// Closed loop again: no schedule, no intended-start latency.
	if err := e.SetRate(0); err != nil {
		t.Fatal(err)
	}
	g = run(t, e, window(50*time.Millisecond, 200*time.Millisecond))
	if g.Scheduled != 0 || g.Missed != 0 || g.Latency.Intended != nil {
		t.Errorf("closed loop after SetRate(0): Scheduled %d, Missed %d, Intended %v; want 0, 0, nil", g.Scheduled, g.Missed, g.Latency.Intended)
	}
}

// TestOpenLoopMissed: with every slot held by a slow server, starts that
// come due are missed, counted and never run late: every scheduled start
// either ran or was missed, and the slots ran no more than they could.
func TestOpenLoopMissed(t *testing.T) {
	const hold = 100 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(hold)
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	tg := plans.Target{Addr: strings.TrimPrefix(srv.URL, "http://"), Request: []byte(closeRequest)}
	const slots, rate = 2, 100
	e := newEngine(t, tg, load(plans.Close, 5*time.Second), slots)
	if err := e.SetRate(rate); err != nil {
		t.Fatal(err)
	}
	g := run(t, e, window(300*time.Millisecond, time.Second))
	ran := g.Scheduled - g.Missed
	t.Logf("scheduled %d, missed %d, ran %d, requests %d", g.Scheduled, g.Missed, ran, g.Requests)
	if g.Scheduled < rate || g.Scheduled > rate+1 {
		t.Errorf("Scheduled = %d, want %d", g.Scheduled, rate)
	}
	// Each slot holds a start for at least 100 ms: at most 10 a second.
	if most := uint64(slots * (time.Second/hold + 1)); ran > most {
		t.Errorf("%d starts ran, but %d slots held %v each can run at most %d: starts were not missed", ran, slots, hold, most)
	}
	if got := g.MissedShare(); got < 0.7 {
		t.Errorf("missed share %.2f, want at least 0.7", got)
	}
	// The live snapshot (the progress display's) counts them too.
	if got := e.Snapshot().Missed; got != g.Missed {
		t.Errorf("Snapshot().Missed = %d after the window, want the window's %d", got, g.Missed)
	}
	if d := int64(g.Requests) - int64(ran); d < -slots || d > slots {
		t.Errorf("Requests = %d, ran %d: want within %d (the requests in flight at the edges)", g.Requests, ran, slots)
	}
	// A missed start is never run late: the requests that ran took the
	// server's 100 ms, not a queue's growing wait; the missed ones are in
	// the latency from the intended start at the timeout (no answer
	// within it), so that one shows the overload in its percentiles.
	if a := g.Latency.Total.ValueAtQuantile(99); a > int64(time.Second/time.Microsecond) {
		t.Errorf("p99 from actual start %d µs, want about %v (no start run late)", a, hold)
	}
	if got, want := g.Latency.Intended.TotalCount(), int64(g.Requests+g.Missed); got != want {
		t.Errorf("Intended holds %d values, want Requests + Missed = %d", got, want)
	}
	if got, want := g.Latency.Intended.ValueAtQuantile(50), int64(5*time.Second/time.Microsecond); got < want {
		t.Errorf("p50 from intended start %d µs, want the 5 s timeout (most starts missed)", got)
	}
}

// TestOpenLoopCancel: a cancelled open-loop Run wakes the slots waiting
// for their start and returns at once, even at a rate so low the next
// start is seconds away.
func TestOpenLoopCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(ok))
	t.Cleanup(srv.Close)
	tg := plans.Target{Addr: strings.TrimPrefix(srv.URL, "http://"), Request: []byte(closeRequest)}
	e := newEngine(t, tg, load(plans.Close, 5*time.Second), 4)
	if err := e.SetRate(0.1); err != nil { // one start every 10 s
		t.Fatal(err)
	}
	const after = time.Second
	ctx, cancel := context.WithTimeout(context.Background(), after)
	defer cancel()
	begin := time.Now()
	delay := loadDelay(begin.Add(after + 100*time.Millisecond))
	g := e.Run(ctx, window(0, time.Minute))
	if took, d := time.Since(begin), delay(); took > after+maxLate+d {
		t.Errorf("cancelled Run took %v (a timer %v late then)", took, d)
	}
	if g.Requests != 1 || g.Scheduled != 1 {
		t.Errorf("Requests %d, Scheduled %d; want 1, 1 (start 0 at once, the next one 10 s later)", g.Requests, g.Scheduled)
	}
}
