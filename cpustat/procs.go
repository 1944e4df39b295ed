package cpustat

import (
	"bytes"
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
// at one instant, its own threads' only, with its name and nice value.
type ProcsSample struct {
	procs map[procKey]procStat
}

// Top returns at most n processes not in exclude that used CPU between a
// and b and may run on cpus (any when empty), busiest first. /proc does
// not split time by CPU: the rank weighs it by the affinity's share in cpus.
func (a ProcsSample) Top(b ProcsSample, cpus pinning.Set, exclude []int, n int) []results.ProcessCPU {
	return a.top(b, cpus, exclude, n, func(pid int) pinning.Set {
		set, _ := pinning.Allowed(strconv.Itoa(pid))
		return set
	})
}

// TopAllowed is Top with the affinities given, read on another machine
// for the PIDs Used returns; a process missing from allowed is not named.
func (a ProcsSample) TopAllowed(b ProcsSample, cpus pinning.Set, exclude []int, n int, allowed map[int]pinning.Set) []results.ProcessCPU {
	return a.top(b, cpus, exclude, n, func(pid int) pinning.Set { return allowed[pid] })
}

// used calls f with each process of b not in exclude that used CPU since
// a, and its seconds (all of them where a did not see it).
func (a ProcsSample) used(b ProcsSample, exclude []int, f func(k procKey, st procStat, sec float64)) {
	for k, st := range b.procs {
		sec := st.own - a.procs[k].own
		if sec > 0 && !slices.Contains(exclude, k.pid) {
			f(k, st, sec)
		}
	}
}

// Used returns, ascending, the PIDs of the processes not in exclude that
// used CPU between a (the earlier sample) and b: those Top may name.
func (a ProcsSample) Used(b ProcsSample, exclude []int) []int {
	var pids []int
	a.used(b, exclude, func(k procKey, _ procStat, _ float64) { pids = append(pids, k.pid) })
	slices.Sort(pids)
	return pids
}

// top is Top with the affinity of a process read by allowedOf (none: not read).
func (a ProcsSample) top(b ProcsSample, cpus pinning.Set, exclude []int, n int, allowedOf func(int) pinning.Set) []results.ProcessCPU {
	type used struct {
		p    results.ProcessCPU
		rank float64 // estimated seconds on cpus
	}
	var cands []used
	a.used(b, exclude, func(k procKey, st procStat, sec float64) {
		allowed := allowedOf(k.pid)
		if len(allowed) == 0 {
			return // exited meanwhile: it cannot be told apart from a new one
		}
		in := len(allowed)
		if len(cpus) > 0 {
			in -= len(allowed.Missing(cpus))
		}
		if in > 0 {
			p := results.ProcessCPU{PID: k.pid, Comm: st.comm, Nice: st.nice, Seconds: sec, CPUs: allowed.String()}
			cands = append(cands, used{p, sec * float64(in) / float64(len(allowed))})
		}
	})
	slices.SortFunc(cands, func(x, y used) int {
		if c := cmp.Compare(y.rank, x.rank); c != 0 {
			return c
		}
		return x.p.PID - y.p.PID
	})
	top := make([]results.ProcessCPU, min(n, len(cands)))
	for i := range top {
		top[i] = cands[i].p
	}
	return top
}

// parseSchedstat returns the run delay (the second field, ns) of a /proc/.../schedstat line.
func parseSchedstat(b []byte) (time.Duration, error) {
	var run, wait uint64
	if _, err := fmt.Sscan(string(b), &run, &wait); err != nil {
		return 0, fmt.Errorf("%q: want 3 counts (run time, wait time in ns, timeslices): %w", b, err)
	}
	return time.Duration(wait), nil
}

// parseProcPIDStat parses process pid's /proc/PID/stat. The command name
// (field 2) may hold spaces and ')', so fields count from the last ')'.
func parseProcPIDStat(pid int, b []byte) (procStat, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return procStat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[end+1:])) // f[n-3] is field n
	if len(f) < 22-2 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: %d fields, want at least 22", pid, len(f)+2)
	}
	var v [7]int64
	for j, n := range []int{4, 14, 15, 16, 17, 22, 19} { // ppid utime stime cutime cstime starttime nice
		var err error
		if v[j], err = strconv.ParseInt(f[n-3], 10, 64); err != nil || v[j] < 0 && n != 19 {
			return procStat{}, fmt.Errorf("/proc/%d/stat: field %d: %q is not a count", pid, n, f[n-3])
		}
	}
	return procStat{
		key:     procKey{pid: pid, start: uint64(v[5])},
		ppid:    int(v[0]),
		seconds: float64(v[1]+v[2]+v[3]+v[4]) / UserHZ,
		own:     float64(v[1]+v[2]) / UserHZ,
		comm:    string(b[open+1 : end]),
		nice:    int(v[6]),
		state:   f[0][0], // Fields yields no empty field
	}, nil
}

// procsOf is the processes all as a ProcsSample.
func procsOf(all map[int]procStat) ProcsSample {
	s := ProcsSample{procs: make(map[procKey]procStat, len(all))}
	for _, st := range all {
		s.procs[st.key] = st
	}
	return s
}

// newTree is the tree of root among all, every process by PID.
func newTree(root int, all map[int]procStat) TreeSample {
	ts := TreeSample{Comm: all[root].comm, procs: make(map[procKey]float64), alive: make(map[procKey]struct{}, len(all))}
	children := make(map[int][]int)
	for p, st := range all {
		children[st.ppid] = append(children[st.ppid], p)
		ts.alive[st.key] = struct{}{}
	}
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		st := all[queue[0]]
		if _, dup := ts.procs[st.key]; dup {
			continue
		}
		ts.procs[st.key] = st.seconds
		ts.Seconds += st.seconds
		ts.PIDs = append(ts.PIDs, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	slices.Sort(ts.PIDs[1:])
	return ts
}
