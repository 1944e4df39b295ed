package runner

import (
	"fmt"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// eta says how long the rest of a run takes: the windows left, each as
// long as those so far took on average (before one ended, as planned).
type eta struct {
	start   time.Time     // when the first window of this run began its load
	done    int           // windows begun so far in this run
	planned int           // windows this run measures (at most, for a search)
	nominal time.Duration // one window with its cooldown, as planned
	atMost  bool
}

// newETA is the eta of p's run; run holds the windows measured before a resume.
func newETA(p *plans.Plan, run *results.Run) *eta {
	d := p.Duration()
	planned := d.Windows
	for i := range run.Variants {
		planned -= len(run.Variants[i].Reps)
	}
	return &eta{planned: max(planned, 0), nominal: d.Warmup + d.Window + d.Cooldown, atMost: d.AtMost}
}

// begin counts a window that loads from begin to end and returns when the
// run should end; zero when e is nil.
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

// runLeft words the time until runEnd: ", run about 12m30s left"; "" when
// unknown or the window is the run's last.
func runLeft(r repInfo, now time.Time) string {
	if r.runEnd.IsZero() || !r.runEnd.After(r.window.End) {
		return ""
	}
	left := max(r.runEnd.Sub(now), 0)
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
