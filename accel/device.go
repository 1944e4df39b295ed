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

// submit offers an operation at now (non-decreasing from call to call).
// It returns when its result is ready, or false for RETRY: every engine
// busy and queue operations already waiting.
func (d *device) submit(now time.Time) (ready time.Time, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := 0
	for i < len(d.waiting) && !d.waiting[i].After(now) {
		i++
	}
	d.waiting = d.waiting[i:]
	d.prune(now)
	e := 0
	for k := range d.free {
		if d.free[k].Before(d.free[e]) {
			e = k
		}
	}
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
	d.prune(now)
	return len(d.out)
}

func (d *device) prune(now time.Time) {
	d.out = slices.DeleteFunc(d.out, func(ready time.Time) bool { return !ready.After(now) })
}

// busyTime is the engines' busy time summed, for the operations accepted.
func (d *device) busyTime() time.Duration { return time.Duration(d.busy.Load()) }
