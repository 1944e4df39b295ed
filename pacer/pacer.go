package pacer

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"
)

// MaxRate is the highest rate a Schedule accepts, in starts per second:
// one start per nanosecond would leave the schedule no resolution.
const MaxRate = 1e8

// Schedule is a fixed rate of intended starts: start k is due at k/rate
// after the origin. Use NewSchedule.
type Schedule struct {
	rate float64 // starts per second
}

// NewSchedule returns the schedule of rate starts per second.
func NewSchedule(rate float64) (Schedule, error) {
	if !(rate > 0) || rate > MaxRate || math.IsInf(rate, 0) {
		return Schedule{}, fmt.Errorf("pacer: rate %g/s, want > 0 and at most %g", rate, MaxRate)
	}
	return Schedule{rate: rate}, nil
}

// At is when start k is due: k/rate, from k alone so that no error accumulates.
func (s Schedule) At(k int64) time.Duration {
	return time.Duration(math.Round(float64(k) * 1e9 / s.rate))
}

// Index is the first start due at or after t.
func (s Schedule) Index(t time.Duration) int64 {
	if t <= 0 {
		return 0
	}
	k := int64(math.Ceil(float64(t) * s.rate / 1e9))
	// Float rounding may put k one off either way; At is the reference.
	for k > 0 && s.At(k-1) >= t {
		k--
	}
	for s.At(k) < t {
		k++
	}
	return k
}

// Count is the number of starts due in [from, to).
func (s Schedule) Count(from, to time.Duration) int64 {
	if to <= from {
		return 0
	}
	return s.Index(to) - s.Index(from)
}

// Start is one start handed out by Take.
type Start struct {
	K          int64         // the index in the schedule
	At         time.Duration // when it is due, after the origin
	MissedFrom int64         // starts [MissedFrom, K) came due while no slot was free: skipped
}

// Missed is the number of starts skipped before this one.
func (st Start) Missed() int64 { return st.K - st.MissedFrom }

// Pacer hands out a schedule's starts before its end to concurrent takers,
// each exactly once, without a lock.
type Pacer struct {
	s    Schedule
	end  atomic.Int64 // no start at or after it
	next atomic.Int64 // the first start not yet handed out or skipped
}

// New returns a pacer for s whose last start is due before end.
func New(s Schedule, end time.Duration) *Pacer {
	p := &Pacer{s: s}
	p.end.Store(int64(end))
	return p
}

// Schedule is the pacer's schedule.
func (p *Pacer) Schedule() Schedule { return p.s }

// Reset starts the schedule over from start 0 with a new end.
func (p *Pacer) Reset(end time.Duration) {
	p.next.Store(0)
	p.end.Store(int64(end))
}

// Take hands a taker free since free the next start not taken yet; those
// due before free are missed, never handed out late. !ok: the end is reached.
func (p *Pacer) Take(free time.Duration) (st Start, ok bool) {
	end := time.Duration(p.end.Load())
	for {
		k := p.next.Load()
		at := p.s.At(k)
		if at >= free {
			if at >= end || p.next.CompareAndSwap(k, k+1) { // the end, or k taken
				return Start{K: k, At: at, MissedFrom: k}, at < end
			}
			continue
		}
		// k came due before the taker was free, and no other took it:
		// skip to the first start due since, and take it, in one step.
		j := p.s.Index(free)
		if e := p.s.Index(end); j >= e { // nothing left before the end
			if p.next.CompareAndSwap(k, e) {
				return Start{K: e, At: p.s.At(e), MissedFrom: k}, false
			}
			continue
		}
		if p.next.CompareAndSwap(k, j+1) {
			return Start{K: j, At: p.s.At(j), MissedFrom: k}, true
		}
	}
}

// Clock is Wait's time since the origin; SleepUntil returns once Now >= t,
// or earlier when its owner cancels.
type Clock interface {
	Now() time.Duration
	SleepUntil(t time.Duration)
}

// Wait takes the next start for a taker free now and sleeps until it is
// due; ok as Take's.
func (p *Pacer) Wait(c Clock) (Start, bool) {
	st, ok := p.Take(c.Now())
	if ok {
		c.SleepUntil(st.At)
	}
	return st, ok
}
