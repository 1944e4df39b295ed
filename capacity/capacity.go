package capacity

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Config is how the search steps.
type Config struct {
	From       float64 // the first rate, per second (> 0)
	Factor     float64 // multiplies the rate while steps pass (> 1)
	Resolution float64 // the bracket's width, relative to the passing rate, that ends the bisection
	Max        float64 // the highest rate tried (>= From)
}

// Bound is the most up steps (From to Max) and bisect steps a search takes.
func (c Config) Bound() (up, bisect int) {
	up = 1
	if c.Max > c.From {
		up += int(math.Ceil(math.Log(c.Max/c.From)/math.Log(c.Factor) - 1e-9))
	}
	if c.Factor-1 > c.Resolution {
		bisect = int(math.Ceil(math.Log2((c.Factor-1)/c.Resolution) - 1e-9))
	}
	return up, bisect
}

// Phase is the part of the search a step belongs to.
type Phase string

const (
	Up     Phase = "up"     // multiply the rate by Factor while the targets hold
	Bisect Phase = "bisect" // narrow the knee between a passing and a failing rate
)

// Step is one window of the search.
type Step struct {
	Rate  float64
	Phase Phase
	Pass  bool
	Why   string // which target failed
}

// Limit says where a search ended without bracketing the knee.
type Limit string

const (
	Bracketed Limit = ""           // the knee lies between Knee and Fail
	BelowFrom Limit = "below-from" // the first step failed
	AtMax     Limit = "at-max"     // every step passed up to Max
)

// Result is where a search ended.
type Result struct {
	Knee  float64 // the highest rate that met the targets (0: none did)
	Fail  float64 // the lowest rate that failed (0: none did)
	Limit Limit
	Steps []Step
	Done  bool // the search has no further step
}

// Search is one capacity search. It is not safe for concurrent use.
type Search struct {
	cfg     Config
	steps   []Step
	lo, hi  float64 // highest passing, lowest failing rate (0: none yet)
	next    float64 // rate of the step Next hands out
	phase   Phase
	pending bool // Next handed out a step not yet Recorded
	done    bool
}

// New returns a search with c; it checks c.
func New(c Config) (*Search, error) {
	var errs []error
	if !(c.From > 0) || math.IsInf(c.From, 0) {
		errs = append(errs, fmt.Errorf("capacity: from %g, want > 0", c.From))
	}
	if !(c.Factor > 1) || math.IsInf(c.Factor, 0) {
		errs = append(errs, fmt.Errorf("capacity: factor %g, want > 1", c.Factor))
	}
	if !(c.Resolution > 0) {
		errs = append(errs, fmt.Errorf("capacity: resolution %g, want > 0", c.Resolution))
	}
	if !(c.Max >= c.From) || math.IsInf(c.Max, 0) {
		errs = append(errs, fmt.Errorf("capacity: max %g, want at least from (%g)", c.Max, c.From))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Search{cfg: c, next: c.From, phase: Up}, nil
}

// Next is the next step's rate and phase, again until Record; !ok: done.
func (s *Search) Next() (rate float64, phase Phase, ok bool) {
	if s.done {
		return 0, "", false
	}
	s.pending = true
	return s.next, s.phase, true
}

// Record is whether the step Next handed out met the targets, and why not.
func (s *Search) Record(pass bool, why string) {
	if !s.pending {
		panic("capacity: Record without Next")
	}
	s.pending = false
	r := s.next
	s.steps = append(s.steps, Step{Rate: r, Phase: s.phase, Pass: pass, Why: why})
	if pass {
		s.lo = r
	} else {
		s.hi = r
	}
	switch {
	case s.phase == Up && pass && r >= s.cfg.Max:
		s.done = true // the knee is at or above Max
	case s.phase == Up && pass:
		s.next = min(r*s.cfg.Factor, s.cfg.Max)
	case s.lo == 0:
		s.done = true // the first step failed: below From
	default:
		s.phase = Bisect
		s.next = (s.lo + s.hi) / 2
		if s.next >= 100 {
			s.next = math.Round(s.next) // whole starts per second read better
		}
		// Done at the resolution, or with nothing left between them.
		s.done = s.hi-s.lo <= s.cfg.Resolution*s.lo || s.next <= s.lo || s.next >= s.hi
	}
}

// Result is where the search stands.
func (s *Search) Result() Result {
	res := Result{Knee: s.lo, Fail: s.hi, Steps: append([]Step(nil), s.steps...), Done: s.done}
	switch {
	case s.lo == 0 && s.hi != 0:
		res.Limit = BelowFrom
	case s.hi == 0 && s.done:
		res.Limit = AtMax
	}
	return res
}

// Targets are what a step must meet.
type Targets struct {
	P99Handshake, P99Total time.Duration // 0: no bound
	MaxErrors, MaxMissed   float64       // shares of attempts and starts
}

// Measure is what one step measured; one without a success meets no target.
type Measure struct {
	Succeeded    uint64
	P99Handshake time.Duration
	P99Total     time.Duration // from the intended start
	ErrorShare   float64       // of the attempts
	MissedShare  float64       // of the scheduled starts
}

// Judge says whether m meets t, else every miss: "p99 handshake 31.2 ms > 20 ms; …".
func (t Targets) Judge(m Measure) (pass bool, why string) {
	millis := func(d time.Duration) string { return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond)) }
	pct := func(f float64) string { return fmt.Sprintf("%.3g %%", 100*f) }
	var fails []string
	if m.Succeeded == 0 {
		fails = append(fails, "no request succeeded")
	}
	if t.P99Handshake > 0 && m.P99Handshake > t.P99Handshake {
		fails = append(fails, fmt.Sprintf("p99 handshake %s > %s", millis(m.P99Handshake), millis(t.P99Handshake)))
	}
	if t.P99Total > 0 && m.P99Total > t.P99Total {
		fails = append(fails, fmt.Sprintf("p99 total %s > %s", millis(m.P99Total), millis(t.P99Total)))
	}
	if m.ErrorShare > t.MaxErrors {
		fails = append(fails, fmt.Sprintf("errors %s > %s", pct(m.ErrorShare), pct(t.MaxErrors)))
	}
	if m.MissedShare > t.MaxMissed {
		fails = append(fails, fmt.Sprintf("missed %s > %s", pct(m.MissedShare), pct(t.MaxMissed)))
	}
	return len(fails) == 0, strings.Join(fails, "; ")
}
