package cpustat

import (
	"errors"
	"runtime"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// ErrUnsupported is returned by SampleTree on systems without Linux /proc.
var ErrUnsupported = errors.New("process tree CPU accounting needs Linux /proc (this is " + runtime.GOOS + ")")

// procKey identifies a process across samples: a PID together with its start
// time, so a reused PID is a different process.
type procKey struct {
	pid   int
	start uint64 // clock ticks after boot, /proc/PID/stat field 22
}

// TreeSample is the cumulative CPU time of a process and all its
// descendants at one instant.
type TreeSample struct {
	// Root is the PID the tree was sampled from.
	Root int
	// PIDs lists the processes in the tree, root first, then ascending.
	PIDs []int
	// Comm is the root's command name ("" when unread).
	Comm string
	// CPUs is the union of the tree's CPU affinity masks: the CPUs its
	// processes may run on.
	CPUs pinning.Set
	// Seconds is the tree's cumulative CPU time: user + system of every
	// member plus the user + system of children they have reaped.
	Seconds float64

	// procs holds each member's own plus reaped-children seconds.
	procs map[procKey]float64
	// alive holds every process on the system at sample time, tree or not.
	alive map[procKey]struct{}
}

// Usage returns the CPU time the tree used between a (the earlier sample)
// and b over a window of the given length; Busy is Seconds over the
// window times b's CPUs, clamped to [0, 1]. Per process (PID and start
// time): a survivor counts its growth, a newcomer all of its time, and
// one that exited counts through its parent's reaped-children time. Exact
// for nginx; it undercounts only processes that leave the tree alive or
// whose parent ignores SIGCHLD. Seconds is never below 0.
func (a TreeSample) Usage(b TreeSample, window time.Duration) results.CPUUsage {
	var sec float64
	for k, tb := range b.procs {
		sec += tb - a.procs[k] // 0 when k is new at b
	}
	for k, ta := range a.procs {
		if _, ok := b.procs[k]; ok {
			continue
		}
		if _, ok := b.alive[k]; ok {
			continue // left the tree alive: its time is not in the tree any more
		}
		sec -= ta // exited and reaped into a member's cutime/cstime
	}
	sec = max(sec, 0)
	u := results.CPUUsage{CPUs: b.CPUs.String(), Seconds: sec}
	if window > 0 && len(b.CPUs) > 0 {
		u.Busy = clamp01(sec / (window.Seconds() * float64(len(b.CPUs))))
	}
	return u
}
