package pacer

import (
	"sync"
	"testing"
	"time"
)

// fakeClock advances only when slept on, in whole ticks: SleepUntil(t)
// moves Now to the first tick at or after t.
type fakeClock struct {
	now  time.Duration
	tick time.Duration
}

func (c *fakeClock) Now() time.Duration { return c.now }

func (c *fakeClock) SleepUntil(t time.Duration) {
	if t <= c.now {
		return
	}
	c.now += (t - c.now + c.tick - 1) / c.tick * c.tick
}

// TestScheduleAccuracy: one taker issues N starts at rate R on a fake clock
// with a coarse tick; the N-th start is due at N/R exactly (no drift), and
// the clock reads N/R within one tick when it is issued. The rates have
// periods that are not whole nanoseconds, where adding a rounded period
// per start would drift by far more than a tick over a million starts.
func TestScheduleAccuracy(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		n    int64
		tick time.Duration
	}{
		{7000, 1_000_000, time.Microsecond},      // period 142857.142… ns
		{3, 3000, time.Millisecond},              // period 333333333.3… ns
		{20000, 200_000, 100 * time.Microsecond}, // a tick far coarser than the period
		{1e6 / 3, 1_000_000, time.Microsecond},
	} {
		s, err := NewSchedule(tc.rate)
		if err != nil {
			t.Fatal(err)
		}
		p := New(s, time.Duration(1<<62))
		c := &fakeClock{tick: tc.tick}
		var missed int64
		var last Start
		for i := int64(0); i < tc.n; i++ {
			st, ok := p.Wait(c)
			if !ok {
				t.Fatalf("rate %g: start %d refused", tc.rate, i)
			}
			missed += st.Missed()
			last = st
		}
		// The taker is free again at once, so with a tick coarser than the
		// period it finds starts already due: those are missed. Issued and
		// missed starts together cover the schedule.
		issued := tc.n
		if got, want := last.K+1, issued+missed; got != want {
			t.Errorf("rate %g: last index %d, want issued+missed = %d", tc.rate, got, want)
		}
		want := time.Duration(float64(last.K) / tc.rate * 1e9)
		if d := last.At - want; d < -1 || d > 1 {
			t.Errorf("rate %g: start %d due at %v, want %v (drift %v)", tc.rate, last.K, last.At, want, d)
		}
		if d := c.Now() - want; d < 0 || d > tc.tick {
			t.Errorf("rate %g: start %d issued at %v, want %v + at most one tick (%v)", tc.rate, last.K, c.Now(), want, tc.tick)
		}
		if tc.tick*time.Duration(tc.rate) < time.Second && missed != 0 {
			t.Errorf("rate %g, tick %v: %d starts missed by a taker that was always free in time", tc.rate, tc.tick, missed)
		}
	}
}

// TestScheduleIndex: Index inverts At exactly, and Count counts.
func TestScheduleIndex(t *testing.T) {
	for _, rate := range []float64{1, 3, 7, 1000, 7000, 33333.3, 1e6 / 3, 1e8} {
		s, _ := NewSchedule(rate)
		for k := int64(0); k < 2000; k++ {
			at := s.At(k)
			if got := s.Index(at); got != k {
				t.Fatalf("rate %g: Index(At(%d) = %v) = %d", rate, k, at, got)
			}
			if got := s.Index(at + 1); got != k+1 && s.At(k+1) != at+1 {
				t.Fatalf("rate %g: Index(At(%d)+1) = %d, want %d", rate, k, got, k+1)
			}
		}
		if got, want := s.Count(0, time.Second), int64(rate); rate >= 1 && (got < want || got > want+1) {
			t.Errorf("rate %g: Count(0, 1s) = %d, want %d", rate, got, want)
		}
	}
}

func TestNewScheduleErrors(t *testing.T) {
	for _, r := range []float64{0, -1, 2e8} {
		if _, err := NewSchedule(r); err == nil {
			t.Errorf("NewSchedule(%g): no error", r)
		}
	}
}

// TestTakeMissed: a taker that comes back late skips every start due in
// between, counts them, and gets the next start still ahead.
func TestTakeMissed(t *testing.T) {
	s, _ := NewSchedule(1000) // one start per ms
	p := New(s, time.Second)
	st, ok := p.Take(0)
	if !ok || st.K != 0 || st.Missed() != 0 {
		t.Fatalf("first Take = %+v, %v", st, ok)
	}
	st, ok = p.Take(10*time.Millisecond + 1) // starts 1..10 came due unserved
	if got, want := st.K, int64(11); !ok || got != want {
		t.Fatalf("late Take: K = %d (ok %v), want %d", got, ok, want)
	}
	if got, want := st.Missed(), int64(10); got != want {
		t.Errorf("late Take: missed %d, want %d", got, want)
	}
	st, ok = p.Take(10 * time.Millisecond) // another taker, on time: start 12 is next
	if !ok || st.K != 12 || st.Missed() != 0 {
		t.Errorf("next Take = %+v, %v; want K 12, none missed", st, ok)
	}
	// Past the end: refused, and what came due before the end is missed.
	st, ok = p.Take(2 * time.Second)
	if ok {
		t.Fatalf("Take past the end: ok")
	}
	if got, want := st.Missed(), int64(1000-13); got != want {
		t.Errorf("Take past the end: missed %d, want %d", got, want)
	}
	if st, ok = p.Take(2 * time.Second); ok || st.Missed() != 0 {
		t.Errorf("second Take past the end = %+v, %v; want refused, none missed again", st, ok)
	}
}

// TestTakeConcurrent: takers racing on one pacer get every start once;
// handed out plus missed covers the schedule exactly.
func TestTakeConcurrent(t *testing.T) {
	s, _ := NewSchedule(1e6)
	const end = 200 * time.Millisecond
	p := New(s, end)
	var mu sync.Mutex
	seen := make(map[int64]bool)
	var missed int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			now := time.Duration(g) // each taker's own fake time, advancing irregularly
			for {
				st, ok := p.Take(now)
				mu.Lock()
				missed += st.Missed()
				if ok {
					if seen[st.K] {
						t.Errorf("start %d handed out twice", st.K)
					}
					seen[st.K] = true
				}
				mu.Unlock()
				if !ok {
					return
				}
				now = st.At + time.Duration(1+g*997%3000)
			}
		}()
	}
	wg.Wait()
	if got, want := int64(len(seen))+missed, s.Count(0, end); got != want {
		t.Errorf("handed out %d + missed %d = %d, want every start before the end: %d", len(seen), missed, got, want)
	}
}

// TestTakeSlowTaker: a taker free since before a start came due gets that
// start even when it calls after it: it was free, so the start is its, late
// by the taker's own lag, not missed.
func TestTakeSlowTaker(t *testing.T) {
	s, _ := NewSchedule(1000)
	p := New(s, time.Second)
	if st, ok := p.Take(0); !ok || st.K != 0 {
		t.Fatalf("first Take = %+v, %v", st, ok)
	}
	// Free since 0.5 ms; start 1 (due at 1 ms) is not taken yet.
	st, ok := p.Take(500 * time.Microsecond)
	if !ok || st.K != 1 || st.Missed() != 0 {
		t.Errorf("Take(free 0.5 ms) = %+v, %v; want start 1, none missed", st, ok)
	}
}
