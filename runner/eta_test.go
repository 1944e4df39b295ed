package runner

import (
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestETA: before the first window ends, the rest is the plan's windows
// (warm-up + window + cooldown each); then what the windows so far took
// on average, restarts included. A resumed run does not count the windows
// measured before. The display words it beside the window's time left.
func TestETA(t *testing.T) {
	p := &plans.Plan{Variants: []plans.Variant{{Name: "a"}, {Name: "b"}}, Repeat: 3, Order: results.OrderSequential,
		Cooldown: time.Second, Load: plans.Load{Warmup: time.Second, Duration: 8 * time.Second}}
	e := newETA(p, &results.Run{Variants: []results.Variant{{Name: "a"}, {Name: "b"}}})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Window 1 of 6: 5 more of 10 s each after it.
	if got, want := e.begin(t0, t0.Add(9*time.Second)), t0.Add(9*time.Second+50*time.Second); !got.Equal(want) {
		t.Errorf("first window: run ends %v, want %v", got.Sub(t0), want.Sub(t0))
	}
	// Window 2 began 15 s after the first (a slow restart): 4 more of 15 s.
	if got, want := e.begin(t0.Add(15*time.Second), t0.Add(24*time.Second)), t0.Add(24*time.Second+60*time.Second); !got.Equal(want) {
		t.Errorf("second window: run ends %v, want %v", got.Sub(t0), want.Sub(t0))
	}
	resumed := newETA(p, &results.Run{Variants: []results.Variant{{Name: "a", Reps: make([]results.Rep, 3)}, {Name: "b", Reps: make([]results.Rep, 1)}}})
	if got, want := resumed.planned, 2; got != want {
		t.Errorf("resumed run plans %d windows, want %d", got, want)
	}
	r := repInfo{window: results.Window{End: t0.Add(24 * time.Second)}, runEnd: t0.Add(84 * time.Second)}
	if got, want := runLeft(r, t0.Add(20*time.Second)), ", run about 1m4s left"; got != want {
		t.Errorf("runLeft = %q, want %q", got, want)
	}
	r.runEnd = r.window.End // the last window
	if got := runLeft(r, t0); got != "" {
		t.Errorf("runLeft in the last window = %q, want nothing", got)
	}
}
