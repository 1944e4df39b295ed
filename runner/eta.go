package runner

import (
	"fmt"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// eta says how long the rest of a run takes, for the display: the windows
// left, each as long as those so far took on average (or, before one ended,
// what the plan says).
type eta struct {
	start   time.Time     // when the first window of this run began its load
	done    int           // windows begun so far in this run
	planned int           // windows this run measures (at most, for a search)
	nominal time.Duration // one window with its cooldown, as planned
	atMost  bool
}

// newETA is the eta of p's run, whose record run holds the windows a
// resumed run measured before (they are not measured again).
func newETA(p *plans.Plan, run *results.Run) *eta {
	d := p.Duration()
	planned := d.Windows
	for i := range run.Variants {
		planned -= len(run.Variants[i].Reps)
	}
	return &eta{planned: max(planned, 0), nominal: d.Warmup + d.Window + d.Cooldown, atMost: d.AtMost}
}

// begin counts a window whose load begins at begin and ends at end, and
// returns when the run should end: end plus the windows still to come
// after it. Zero when e is nil.
func (e *eta) begin(begin, end time.Time) time.Time {
	if e == nil {
		return time.Time{}
	}
	per := e.nominal
	if e.done == 0 {
		e.start = begin
	} else {
		per = begin.Sub(e.start) / time.Duration(e.done)
	}
	e.done++
	return end.Add(time.Duration(max(e.planned-e.done, 0)) * per)
}

// runLeft words the time until runEnd for the progress display: ", run
// about 12m30s left" (", run at most … left" for a search); "" when
// runEnd is zero or the window is the run's last.
func runLeft(r repInfo, now time.Time) string {
	if r.runEnd.IsZero() || !r.runEnd.After(r.window.End) {
		return ""
	}
	left := r.runEnd.Sub(now)
	if left < 0 {
		left = 0
	}
	if left >= time.Minute {
		left = left.Round(time.Second)
	} else {
		left = left.Round(100 * time.Millisecond)
	}
	about := "about"
	if r.runAtMost {
		about = "at most about"
	}
	return fmt.Sprintf(", run %s %s left", about, left)
}
