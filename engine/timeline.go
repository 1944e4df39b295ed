package engine

import (
	"time"

	"github.com/kaeload/kaeload/results"
)

// The timeline (Load.Interval > 0) cuts the warm-up and the window into
// intervals anchored at the window's start (negative k in the warm-up).
// A slot counts each event in its own accumulator and hands it to its lane
// when an event falls later. It holds its lock (tmu) from reading the clock
// for an event until the event is counted, so an interval TakeIntervals
// took never receives more. The lock is held across no network wait.

// intervalCounts are the counts of one interval.
type intervalCounts struct {
	requests uint64
	started  uint64
	errors   results.ErrorCounts
}

func (c *intervalCounts) add(o *intervalCounts) {
	c.requests += o.requests
	c.started += o.started
	for i, n := range o.errors {
		c.errors[i] += n
	}
}

// slotInterval is a slot's accumulator: what it counted in interval k and
// has not handed to its lane yet.
type slotInterval struct {
	k    int64
	used bool // k and the counts are live
	c    intervalCounts
	// Timings not yet in the lane's histograms of interval k.
	hs, tot   [batchSize]time.Duration
	nhs, ntot int
}

// laneInterval is what the slots of a lane handed over for interval k.
type laneInterval struct {
	k       int64
	c       intervalCounts
	hs, tot *results.Histogram
}

// lanesSpare is how many intervals a lane has room for before its slice
// grows: those not taken yet, with room for a collector that falls behind.
const lanesSpare = 8

// interval returns the lane's entry for interval k, reusing a spare one;
// the lane's lock is held.
func (l *lane) interval(k int64) *laneInterval {
	for _, li := range l.ivals {
		if li.k == k {
			return li
		}
	}
	var li *laneInterval
	if n := len(l.spare); n > 0 {
		li, l.spare = l.spare[n-1], l.spare[:n-1]
	} else {
		li = &laneInterval{hs: results.NewHistogram(), tot: results.NewHistogram()}
	}
	li.k = k
	l.ivals = append(l.ivals, li)
	return li
}

// intervalOf is the index of the interval holding t (nanoseconds after base).
func (e *Engine) intervalOf(t int64) int64 {
	d := t - e.startNs
	k := d / e.ivl
	if d%e.ivl != 0 && d < 0 {
		k--
	}
	return k
}

// lockTimeline takes the slot's timeline lock before the clock is read for
// an event; whoever counts the event calls unlockTimeline.
func (s *slot) lockTimeline() {
	if s.e.ivl > 0 {
		s.tmu.Lock()
	}
}

func (s *slot) unlockTimeline() {
	if s.e.ivl > 0 {
		s.tmu.Unlock()
	}
}

// at returns the slot's accumulator for interval k, handing the one of an
// earlier interval over to the lane first. tmu is held.
func (s *slot) at(k int64) *slotInterval {
	if s.tl.used && s.tl.k != k {
		s.handOver()
	}
	if !s.tl.used {
		s.tl.k, s.tl.used = k, true
	}
	return &s.tl
}

// handOver moves the slot's accumulator into its lane. tmu is held.
func (s *slot) handOver() {
	t := &s.tl
	if !t.used {
		return
	}
	s.lane.mu.Lock()
	li := s.lane.interval(t.k)
	li.c.add(&t.c)
	for _, d := range t.hs[:t.nhs] {
		li.hs.Record(d)
	}
	for _, d := range t.tot[:t.ntot] {
		li.tot.Record(d)
	}
	s.lane.mu.Unlock()
	*t = slotInterval{}
}

// flushTimings hands the accumulator's timings to the lane when a batch
// is full. tmu is held.
func (s *slot) flushTimings() {
	t := &s.tl
	s.lane.mu.Lock()
	li := s.lane.interval(t.k)
	for _, d := range t.hs[:t.nhs] {
		li.hs.Record(d)
	}
	for _, d := range t.tot[:t.ntot] {
		li.tot.Record(d)
	}
	s.lane.mu.Unlock()
	t.nhs, t.ntot = 0, 0
}

// noteStart counts the attempt in s.att as started, in the interval of its
// start, unless it started after the window's end. tmu is held.
func (s *slot) noteStart() {
	a := &s.att
	if a.start >= s.e.endNs.Load() {
		return
	}
	s.at(s.e.intervalOf(a.start)).c.started++
}

// noteEnd counts s.att in the interval of its end, as account counts it in
// the window or the warm-up. tmu is held.
func (s *slot) noteEnd() {
	a := &s.att
	t := s.at(s.e.intervalOf(a.end))
	if a.handshake {
		t.hs[t.nhs] = a.tlsTime
		t.nhs++
	}
	if a.failed {
		t.c.errors[a.class]++
	} else {
		t.c.requests++
		if a.status >= 400 {
			t.c.errors[results.ErrStatus]++
		}
		t.tot[t.ntot] = time.Duration(a.end - a.start)
		t.ntot++
	}
	if t.nhs == batchSize || t.ntot == batchSize {
		s.flushTimings()
	}
}

// TakeIntervals returns, in order, the intervals that ended and were not
// returned before (every one to the window's end with final, after Run),
// relative to the window's start. One caller at a time; nil without a timeline.
func (e *Engine) TakeIntervals(final bool) []results.IntervalSample {
	if e.ivl == 0 {
		return nil
	}
	e.tlMu.Lock()
	defer e.tlMu.Unlock()
	if !e.tlLive {
		return nil
	}
	end := e.endNs.Load()
	upto := e.intervalOf(end-1) + 1
	if !final {
		upto = min(upto, e.intervalOf(e.since()))
	}
	if upto <= e.tlNext {
		return nil
	}
	for _, s := range e.slots {
		s.tmu.Lock()
		if s.tl.used && s.tl.k < upto {
			s.handOver()
		}
		s.tmu.Unlock()
	}
	from := e.tlNext
	out := make([]results.IntervalSample, upto-from)
	for i := range out {
		k := from + int64(i)
		start := max(k*e.ivl, -e.startNs)
		stop := min((k+1)*e.ivl, end-e.startNs)
		out[i] = results.IntervalSample{K: int(k), Start: time.Duration(start), Length: time.Duration(max(stop-start, 0))}
	}
	for _, l := range e.lanes {
		l.mu.Lock()
		keep := l.ivals[:0]
		for _, li := range l.ivals {
			if li.k >= upto {
				keep = append(keep, li)
				continue
			}
			if li.k >= from { // always: nothing is handed over for an interval taken
				o := &out[li.k-from]
				o.Requests += li.c.requests
				o.Started += li.c.started
				for c, n := range li.c.errors {
					o.Errors[c] += n
				}
				o.Handshake = mergeNonEmpty(o.Handshake, li.hs)
				o.Total = mergeNonEmpty(o.Total, li.tot)
			}
			li.c = intervalCounts{}
			li.hs.Reset()
			li.tot.Reset()
			l.spare = append(l.spare, li)
		}
		clear(l.ivals[len(keep):])
		l.ivals = keep
		l.mu.Unlock()
	}
	e.tlNext = upto
	return out
}

// mergeNonEmpty merges h into acc, a new histogram when acc is nil, when h
// holds anything; it returns acc.
func mergeNonEmpty(acc, h *results.Histogram) *results.Histogram {
	if h.TotalCount() == 0 {
		return acc
	}
	if acc == nil {
		acc = results.NewHistogram()
	}
	acc.Merge(h.Histogram)
	return acc
}

// beginTimeline clears every slot's accumulator and every lane's intervals
// for a Run from base. The caller holds tlMu.
func (e *Engine) beginTimeline() {
	if e.ivl == 0 {
		return
	}
	for _, s := range e.slots {
		s.tl = slotInterval{}
	}
	for _, l := range e.lanes {
		for _, li := range l.ivals {
			li.c = intervalCounts{}
			li.hs.Reset()
			li.tot.Reset()
			l.spare = append(l.spare, li)
		}
		clear(l.ivals)
		l.ivals = l.ivals[:0]
	}
	e.tlNext = e.intervalOf(0)
	e.tlLive = true
}
