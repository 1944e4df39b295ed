package accel

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// device is the virtual accelerator: engines that each take one operation
// every service (together Capacity per second), first come first served,
// with at most queue operations waiting for an engine. An operation's
// result is ready latency after its engine takes it (service, if longer).
// It is a function of the times it is given, so tests need no clock.
type device struct {
	mu      sync.Mutex
	service time.Duration
	latency time.Duration
	queue   int
	free    []time.Time  // per engine: when it takes its next operation
	waiting []time.Time  // start times after the last submit's now, in order
	out     []time.Time  // ready times after the last call's now
	busy    atomic.Int64 // nanoseconds; read without the lock
}

func newDevice(engines, queue int, service, latency time.Duration) *device {
	return &device{service: service, latency: latency, queue: queue, free: make([]time.Time, engines)}
}

// submit offers an operation at now (non-decreasing from call to call) and
// returns when its result is ready, or false for RETRY (the queue is full).
func (d *device) submit(now time.Time) (ready time.Time, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.waiting, d.out = pending(d.waiting, now), pending(d.out, now)
	e := slices.Index(d.free, slices.MinFunc(d.free, time.Time.Compare)) // the engine free first
	start := d.free[e]
	if start.Before(now) {
		start = now
	}
	if start.After(now) {
		if len(d.waiting) >= d.queue {
			return time.Time{}, false
		}
		d.waiting = append(d.waiting, start)
	}
	d.free[e] = start.Add(d.service)
	d.busy.Add(int64(d.service))
	ready = start.Add(max(d.service, d.latency))
	d.out = append(d.out, ready)
	return ready, true
}

// inFlight counts the operations accepted whose result is not ready at now.
func (d *device) inFlight(now time.Time) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.out = pending(d.out, now)
	return len(d.out)
}

// pending keeps the times after now.
func pending(ts []time.Time, now time.Time) []time.Time {
	return slices.DeleteFunc(ts, func(t time.Time) bool { return !t.After(now) })
}

// busyTime is the engines' busy time summed, for the operations accepted.
func (d *device) busyTime() time.Duration { return time.Duration(d.busy.Load()) }
