package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// checkTimeline checks the intervals of g's Run, every one the engine
// returned: contiguous from the first, the last ending with the window;
// the window's (Start >= 0) adding up exactly to g's counts and
// histograms, the warm-up's to g.Outside's warm-up counts; and the
// attempts started between those that ended and those plus the ones in
// flight at the window's end.
func checkTimeline(t *testing.T, g results.Group, ivs []results.IntervalSample) {
	t.Helper()
	if len(ivs) == 0 {
		t.Fatal("the timeline has no interval")
	}
	var win, warm results.IntervalSample
	var hs, tot int64
	for i, iv := range ivs {
		if i > 0 {
			prev := ivs[i-1]
			if iv.K != prev.K+1 || iv.Start != prev.Start+prev.Length {
				t.Errorf("interval %d (k %d, start %s) does not follow interval %d (k %d, %s + %s)", i, iv.K, iv.Start, i-1, prev.K, prev.Start, prev.Length)
			}
		}
		if iv.Length <= 0 {
			t.Errorf("interval k %d at %s: length %s", iv.K, iv.Start, iv.Length)
		}
		if n := count(iv.Total); n != int64(iv.Requests) {
			t.Errorf("interval k %d: total histogram holds %d values for %d requests", iv.K, n, iv.Requests)
		}
		sum := &warm
		if iv.Start >= 0 {
			sum = &win
			hs += count(iv.Handshake)
			tot += count(iv.Total)
		}
		sum.Requests += iv.Requests
		sum.Started += iv.Started
		for c, n := range iv.Errors {
			sum.Errors[c] += n
		}
	}
	last := ivs[len(ivs)-1]
	if got, want := last.Start+last.Length, g.Window.Length(); got != want {
		t.Errorf("the last interval ends at %s, want the window's end %s", got, want)
	}
	if win.Requests != g.Requests {
		t.Errorf("the window's intervals hold %d requests, the window %d", win.Requests, g.Requests)
	}
	for c := range win.Errors {
		if got, want := win.Errors[c], g.Errors[c].Count; got != want {
			t.Errorf("the window's intervals hold %d %s errors, the window %d", got, results.ErrorClass(c), want)
		}
	}
	if got, want := hs, g.Latency.Handshake.TotalCount(); got != want {
		t.Errorf("the window's intervals hold %d handshake times, the window %d", got, want)
	}
	if got, want := tot, g.Latency.Total.TotalCount(); got != want {
		t.Errorf("the window's intervals hold %d total times, the window %d", got, want)
	}
	if warm.Requests != g.Outside.Warmup || warm.Errors.Total() != g.Outside.WarmupErrors {
		t.Errorf("the warm-up's intervals hold %d requests and %d errors, the warm-up %d and %d", warm.Requests, warm.Errors.Total(), g.Outside.Warmup, g.Outside.WarmupErrors)
	}
	ended := g.Requests + g.Errors.Total() - g.Errors[results.ErrStatus].Count + g.Outside.Warmup + g.Outside.WarmupErrors
	started := win.Started + warm.Started
	if started < ended || started > ended+g.Outside.Late+g.Outside.Abandoned {
		t.Errorf("%d requests started, want from the %d that ended to that plus the %d late and %d abandoned", started, ended, g.Outside.Late, g.Outside.Abandoned)
	}
}

// count is h's number of values, 0 for nil.
func count(h *results.Histogram) int64 {
	if h == nil {
		return 0
	}
	return h.TotalCount()
}

// collect runs e over w with the load's interval while another goroutine
// takes the intervals every few milliseconds, as a worker does; it
// returns the group, every interval in the order taken, and how many were
// taken while Run ran. An interval taken while Run runs must have ended.
func collect(t *testing.T, e *Engine, w results.Window) (results.Group, []results.IntervalSample, int) {
	t.Helper()
	var (
		mu     sync.Mutex
		all    []results.IntervalSample
		during int
	)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(7 * time.Millisecond):
			}
			at := time.Since(w.Start)
			got := e.TakeIntervals(false)
			for _, iv := range got {
				if end := iv.Start + iv.Length; end > at {
					t.Errorf("interval k %d ending at %s taken at %s, before it ended", iv.K, end, at)
				}
			}
			mu.Lock()
			all = append(all, got...)
			during += len(got)
			mu.Unlock()
		}
	}()
	g := e.Run(context.Background(), w)
	close(stop)
	<-done
	all = append(all, e.TakeIntervals(true)...)
	return g, all, during
}

// TestTimeline: while Run runs, TakeIntervals returns every interval once
// it has ended, and all of them together add up exactly to the window's
// counts: closed loop (short connections against the built-in target) and
// open loop (a rate, plain http), at the shortest interval, with a
// warm-up that is not a whole number of intervals.
func TestTimeline(t *testing.T) {
	const ivl = results.MinInterval
	for _, tc := range []struct {
		name string
		rate float64
	}{{"closed", 0}, {"open", 400}} {
		t.Run(tc.name, func(t *testing.T) {
			l := load(plans.Close, 5*time.Second)
			l.Interval = ivl
			var tg plans.Target
			if tc.rate == 0 {
				tg = httpsTarget(startTarget(t, false).Addr(), closeRequest)
			} else {
				srv := httptest.NewServer(http.HandlerFunc(ok))
				t.Cleanup(srv.Close)
				tg = plans.Target{Addr: strings.TrimPrefix(srv.URL, "http://"), Request: []byte(closeRequest)}
			}
			e := newEngine(t, tg, l, 4)
			if tc.rate > 0 {
				if err := e.SetRate(tc.rate); err != nil {
					t.Fatal(err)
				}
			}
			w := window(250*time.Millisecond, 500*time.Millisecond)
			g, ivs, during := collect(t, e, w)
			t.Logf("%d requests, %d intervals (%d taken during the run), first at %s", g.Requests, len(ivs), during, ivs[0].Start)
			if g.Requests == 0 {
				t.Fatal("no request in the window")
			}
			if during == 0 {
				t.Error("no interval was taken while Run ran")
			}
			checkTimeline(t, g, ivs)
			// [-250 ms, 500 ms) at 100 ms: k from -3 (cut at the load's
			// start, a little after -250 ms) to 4.
			if first, last := ivs[0], ivs[len(ivs)-1]; first.K != -3 || last.K != 4 || first.Start < -250*time.Millisecond {
				t.Errorf("intervals k %d (at %s) to k %d, want -3 (after -250ms) to 4", first.K, first.Start, last.K)
			}
			if tc.rate > 0 && g.Scheduled == 0 {
				t.Error("the open loop scheduled nothing")
			}
		})
	}
}
