//go:build linux

package cpustat

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/kaeload/kaeload/pinning"
)

// SampleTree reads the cumulative CPU time of pid and all its descendants
// from one pass over /proc (see TreeSample.Usage for how processes that
// come and go are counted). It fails when pid does not exist.
func SampleTree(pid int) (TreeSample, error) {
	all, err := scanProcs()
	if err != nil {
		return TreeSample{}, fmt.Errorf("sample process tree of %d: %w", pid, err)
	}
	children := make(map[int][]int)
	for p, st := range all {
		children[st.ppid] = append(children[st.ppid], p)
	}
	for _, c := range children {
		slices.Sort(c) // map order is random; keep the walk's order stable
	}
	if _, ok := all[pid]; !ok {
		// The root may have been missed by a racing ReadDir; ask directly.
		st, err := readProcStat(pid)
		if err != nil {
			return TreeSample{}, fmt.Errorf("sample process tree of %d: %w", pid, err)
		}
		all[pid] = st
	}
	ts := TreeSample{
		Root:  pid,
		Comm:  all[pid].comm,
		procs: make(map[procKey]float64),
		alive: make(map[procKey]struct{}, len(all)),
	}
	for _, st := range all {
		ts.alive[st.key] = struct{}{}
	}
	var cpus unix.CPUSet
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		st := all[p]
		if _, dup := ts.procs[st.key]; dup {
			continue
		}
		ts.procs[st.key] = st.seconds
		ts.Seconds += st.seconds
		ts.PIDs = append(ts.PIDs, p)
		var mask unix.CPUSet
		if unix.SchedGetaffinity(p, &mask) == nil {
			for i := range cpus {
				cpus[i] |= mask[i]
			}
		}
		queue = append(queue, children[p]...)
	}
	slices.Sort(ts.PIDs[1:])
	for c := 0; c < len(cpus)*64 && len(ts.CPUs) < cpus.Count(); c++ {
		if cpus.IsSet(c) {
			ts.CPUs = append(ts.CPUs, c)
		}
	}
	if len(ts.CPUs) == 0 {
		// Every member exited before its mask could be read; fall back to ours.
		ts.CPUs, _ = pinning.Online()
	}
	return ts, nil
}

// scanProcs reads /proc/PID/stat of every process, by PID. A process that
// exits while the scan runs is left out.
func scanProcs() (map[int]procStat, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	all := make(map[int]procStat, len(entries))
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readProcStat(p)
		if err != nil {
			continue // exited while we scanned, or a kernel oddity: not ours to count
		}
		all[p] = st
	}
	return all, nil
}

// SampleProcs reads the CPU time of every process on this machine from
// one pass over /proc (see ProcsSample.Top).
func SampleProcs() (ProcsSample, error) {
	all, err := scanProcs()
	if err != nil {
		return ProcsSample{}, fmt.Errorf("sample processes: %w", err)
	}
	s := ProcsSample{procs: make(map[procKey]procStat, len(all))}
	for _, st := range all {
		s.procs[st.key] = st
	}
	return s, nil
}

// RunDelay returns how long process pid's live threads have waited ready
// for a CPU (schedstat's second field): next to nothing alone on its CPUs,
// about as long as they run when other processes keep those CPUs busy.
func RunDelay(pid int) (time.Duration, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tids, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("read run delay: %w", err)
	}
	var sum time.Duration
	for _, t := range tids {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			if os.IsNotExist(err) {
				continue // the thread exited meanwhile
			}
			return 0, fmt.Errorf("read run delay: %w", err)
		}
		d, err := parseSchedstat(b)
		if err != nil {
			return 0, fmt.Errorf("read run delay: %s/%s/schedstat: %w", dir, t.Name(), err)
		}
		sum += d
	}
	return sum, nil
}

// readProcStat parses /proc/PID/stat. The command name (field 2) is in
// parentheses and may itself contain spaces and ')', so fields are counted
// from the last ')'.
func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseProcPIDStat(pid, b)
}

func parseProcPIDStat(pid int, b []byte) (procStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3 (state)
	const first = 3
	field := func(n int) (uint64, error) {
		if n-first >= len(f) {
			return 0, fmt.Errorf("/proc/%d/stat: %d fields, want at least %d", pid, len(f)+first-1, n)
		}
		v, err := strconv.ParseInt(string(f[n-first]), 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("/proc/%d/stat: field %d: %q is not a count", pid, n, f[n-first])
		}
		return uint64(v), nil
	}
	var v [6]uint64
	for j, n := range []int{4, 14, 15, 16, 17, 22} { // ppid utime stime cutime cstime starttime
		var err error
		if v[j], err = field(n); err != nil {
			return procStat{}, err
		}
	}
	// The nice value (field 19) is signed.
	if 19-first >= len(f) {
		return procStat{}, fmt.Errorf("/proc/%d/stat: %d fields, want at least 19", pid, len(f)+first-1)
	}
	nice, err := strconv.Atoi(string(f[19-first]))
	if err != nil {
		return procStat{}, fmt.Errorf("/proc/%d/stat: field 19: %q is not a nice value", pid, f[19-first])
	}
	comm := ""
	if j := bytes.IndexByte(b, '('); j >= 0 && j < i {
		comm = string(b[j+1 : i])
	}
	return procStat{
		key:     procKey{pid: pid, start: v[5]},
		ppid:    int(v[0]),
		seconds: float64(v[1]+v[2]+v[3]+v[4]) / UserHZ,
		own:     float64(v[1]+v[2]) / UserHZ,
		comm:    comm,
		nice:    nice,
		state:   f[0][0], // Fields yields no empty field
	}, nil
}
