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
	state   byte    // 'R', 'S', … field 3; 'Z' for a zombie
}

// ProcsSample is the cumulative CPU time of every process on this machine
// at one instant, each process's own threads only (not its reaped
// children), with its command name and nice value.
type ProcsSample struct {
	procs map[procKey]procStat
}

// Top returns at most n processes, not in exclude, that used CPU between
// a and b and may run on a CPU of cpus (any, when cpus is empty), the
// busiest on cpus first. Seconds is a process's own time between the
// samples. /proc does not split time by CPU, so the ranking weighs it by
// the share of the process's affinity inside cpus; each is named with its
// affinity, and one that exited before it was read is not named.
func (a ProcsSample) Top(b ProcsSample, cpus pinning.Set, exclude []int, n int) []results.ProcessCPU {
	return a.top(b, cpus, exclude, n, func(pid int) (pinning.Set, error) { return pinning.Allowed(strconv.Itoa(pid)) })
}

// TopAllowed is Top with the processes' affinity given rather than read
// from this machine's /proc: for another machine's processes
// (RemoteProcs.Procs), whose affinity was read there for the PIDs that
// Used returns. A process missing from allowed is not named.
func (a ProcsSample) TopAllowed(b ProcsSample, cpus pinning.Set, exclude []int, n int, allowed map[int]pinning.Set) []results.ProcessCPU {
	return a.top(b, cpus, exclude, n, func(pid int) (pinning.Set, error) {
		if s, ok := allowed[pid]; ok {
			return s, nil
		}
		return nil, fmt.Errorf("pid %d: affinity not read", pid)
	})
}

// ownSince is the CPU seconds the process k, at st in a later sample,
// used of its own since a (all of them where a did not see it).
func (a ProcsSample) ownSince(k procKey, st procStat) float64 {
	if sa, ok := a.procs[k]; ok {
		return st.own - sa.own
	}
	return st.own
}

// Used returns, ascending, the PIDs of the processes not in exclude that
// used CPU between a (the earlier sample) and b: those Top may name.
func (a ProcsSample) Used(b ProcsSample, exclude []int) []int {
	var pids []int
	for k, st := range b.procs {
		if slices.Contains(exclude, k.pid) {
			continue
		}
		sec := a.ownSince(k, st)
		if sec > 0 {
			pids = append(pids, k.pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// top is Top with the affinity of a process read by allowed.
func (a ProcsSample) top(b ProcsSample, cpus pinning.Set, exclude []int, n int, allowedOf func(int) (pinning.Set, error)) []results.ProcessCPU {
	type used struct {
		p    results.ProcessCPU
		rank float64 // estimated seconds on cpus
	}
	var cands []used
	for k, st := range b.procs {
		if slices.Contains(exclude, k.pid) {
			continue
		}
		sec := a.ownSince(k, st)
		if sec <= 0 {
			continue
		}
		allowed, err := allowedOf(k.pid)
		if err != nil || len(allowed) == 0 {
			continue // exited meanwhile: it cannot be told apart from a new one
		}
		share := 1.0
		if len(cpus) > 0 {
			in := 0
			for _, c := range allowed {
				if cpus.Contains(c) {
					in++
				}
			}
			if in == 0 {
				continue
			}
			share = float64(in) / float64(len(allowed))
		}
		cands = append(cands, used{results.ProcessCPU{PID: k.pid, Comm: st.comm, Nice: st.nice, Seconds: sec, CPUs: allowed.String()}, sec * share})
	}
	slices.SortFunc(cands, func(x, y used) int {
		if c := cmp.Compare(y.rank, x.rank); c != 0 {
			return c
		}
		return x.p.PID - y.p.PID
	})
	top := make([]results.ProcessCPU, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		top = append(top, c.p)
	}
	return top
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
