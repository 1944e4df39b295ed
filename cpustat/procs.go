package cpustat

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// procStat is what SampleTree and SampleProcs need from /proc/PID/stat.
type procStat struct {
	key     procKey
	ppid    int
	seconds float64 // utime + stime + cutime + cstime
	own     float64 // utime + stime: the process's own threads
	comm    string  // the command name (field 2)
	nice    int     // the nice value (field 19)
}

// ProcsSample is the cumulative CPU time of every process on this machine
// at one instant, each process's own threads only (not its reaped
// children), with its command name and nice value.
type ProcsSample struct {
	procs map[procKey]procStat
}

// Top returns the processes that used CPU between a (the earlier sample)
// and b, busiest first, at most n of them: those whose CPU affinity
// includes at least one CPU of cpus (any process when cpus is empty),
// leaving out the PIDs in exclude. A process's Seconds is its own user +
// system time between the samples (all of it when it started after a),
// on whichever CPUs it ran: /proc does not split a process's time by
// CPU, so a process that may also run elsewhere is named with its
// affinity (ProcessCPU.CPUs). A process that exited before b is not
// named. Its affinity is read when Top is called.
func (a ProcsSample) Top(b ProcsSample, cpus pinning.Set, exclude []int, n int) []results.ProcessCPU {
	type used struct {
		st  procStat
		sec float64
	}
	var cands []used
	for k, st := range b.procs {
		if slices.Contains(exclude, k.pid) {
			continue
		}
		sec := st.own
		if sa, ok := a.procs[k]; ok {
			sec -= sa.own
		}
		if sec > 0 {
			cands = append(cands, used{st, sec})
		}
	}
	slices.SortFunc(cands, func(x, y used) int {
		if c := cmp.Compare(y.sec, x.sec); c != 0 {
			return c
		}
		return x.st.key.pid - y.st.key.pid
	})
	var top []results.ProcessCPU
	for _, c := range cands {
		if len(top) == n {
			break
		}
		allowed, err := pinning.Allowed(strconv.Itoa(c.st.key.pid))
		if err != nil {
			continue // exited meanwhile: it cannot be told apart from a new one
		}
		if len(cpus) > 0 && !overlaps(allowed, cpus) {
			continue
		}
		top = append(top, results.ProcessCPU{
			PID: c.st.key.pid, Comm: c.st.comm, Nice: c.st.nice, Seconds: c.sec, CPUs: allowed.String(),
		})
	}
	return top
}

// overlaps reports whether the sets share a CPU.
func overlaps(a, b pinning.Set) bool {
	for _, c := range a {
		if b.Contains(c) {
			return true
		}
	}
	return false
}

// parseSchedstat returns the run delay of a /proc/.../schedstat line:
// "time on CPU (ns) time waiting to run (ns) timeslices".
func parseSchedstat(b []byte) (time.Duration, error) {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("%q: want 3 fields (run time, wait time, timeslices)", b)
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || ns < 0 {
		return 0, fmt.Errorf("%q: wait time %q is not a count of nanoseconds", b, f[1])
	}
	return time.Duration(ns), nil
}
