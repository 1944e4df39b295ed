package runner

import (
	"context"
	"testing"
	"time"

	"github.com/kaeload/kaeload/engine"
	"github.com/kaeload/kaeload/results"
)

// TestRunAtLateStart: a group whose begin has passed and whose window is
// already open reports the start it counted from, not the planned one; a
// group on time keeps the planned window.
func TestRunAtLateStart(t *testing.T) {
	p := plan("127.0.0.1:1", time.Second) // nothing listens: every connect fails at once
	run := func(begin time.Time, win results.Window) results.Window {
		eng, err := engine.New(p.Target, p.Load, 1)
		if err != nil {
			t.Fatal(err)
		}
		return runAt(context.Background(), eng, begin, win).Window
	}
	now := time.Now()
	late := results.Window{Start: now.Add(-time.Second), End: now.Add(100 * time.Millisecond)}
	if got := run(now.Add(-2*time.Second), late); got.Start.Before(now) || !got.End.Equal(late.End) {
		t.Errorf("late: window %v–%v, want from no earlier than %v to %v", got.Start, got.End, now, late.End)
	}
	begin := time.Now().Add(50 * time.Millisecond)
	onTime := results.Window{Start: begin.Add(time.Second), End: begin.Add(1100 * time.Millisecond)}
	if got := run(begin, onTime); !got.Start.Equal(onTime.Start) || !got.End.Equal(onTime.End) {
		t.Errorf("on time: window %v–%v, want the planned %v–%v", got.Start, got.End, onTime.Start, onTime.End)
	}
}
