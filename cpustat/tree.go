package cpustat

import (
	"errors"
	"runtime"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// ErrUnsupported is what the /proc readers return off Linux.
var ErrUnsupported = errors.New("process tree CPU accounting needs Linux /proc (this is " + runtime.GOOS + ")")

// procKey identifies a process across samples: a reused PID has another start time.
type procKey struct {
	pid   int
	start uint64 // clock ticks after boot, /proc/PID/stat field 22
}

// TreeSample is the cumulative CPU time of a process and all its descendants at one instant.
type TreeSample struct {
	PIDs []int       // root first, then ascending
	Comm string      // the root's command name
	CPUs pinning.Set // the union of the members' affinities
	// Seconds is user + system of every member and of the children they reaped.
	Seconds float64

	procs map[procKey]float64  // each member's Seconds
	alive map[procKey]struct{} // every process on the system, tree or not
}

// Usage returns the CPU time the tree used from a to b; Busy is Seconds
// over window × b's CPUs. A survivor counts its growth, a newcomer all its
// time, one that exited its parent's reaped-children time: exact for nginx.
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
