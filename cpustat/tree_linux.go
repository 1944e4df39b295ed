//go:build linux

package cpustat

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/pinning"
)

// SampleTree reads the cumulative CPU time of pid and all its descendants
// in one pass over /proc. It fails when pid does not exist.
func SampleTree(pid int) (TreeSample, error) {
	all, err := scanProcs()
	if err != nil {
		return TreeSample{}, fmt.Errorf("sample process tree of %d: %w", pid, err)
	}
	if _, ok := all[pid]; !ok {
		// The root may have been missed by a racing ReadDir; ask directly.
		st, err := readProcStat(pid)
		if err != nil {
			return TreeSample{}, fmt.Errorf("sample process tree of %d: %w", pid, err)
		}
		all[pid] = st
	}
	ts := newTree(pid, all)
	for _, p := range ts.PIDs { // the union of the members' affinities
		set, _ := pinning.Allowed(strconv.Itoa(p))
		ts.CPUs = append(ts.CPUs, set...)
	}
	slices.Sort(ts.CPUs)
	if ts.CPUs = slices.Compact(ts.CPUs); len(ts.CPUs) == 0 {
		// Every member exited before its mask could be read; fall back to ours.
		ts.CPUs, _ = pinning.Online()
	}
	return ts, nil
}

// scanProcs reads /proc/PID/stat of every process but those that exit meanwhile, by PID.
func scanProcs() (map[int]procStat, error) {
	pids, err := process.Pids()
	if err != nil {
		return nil, err
	}
	all := make(map[int]procStat, len(pids))
	for _, p := range pids {
		if st, err := readProcStat(int(p)); err == nil { // else exited while we scanned: not ours to count
			all[int(p)] = st
		}
	}
	return all, nil
}

// SampleProcs reads the CPU time of every process on this machine.
func SampleProcs() (ProcsSample, error) {
	all, err := scanProcs()
	if err != nil {
		return ProcsSample{}, fmt.Errorf("sample processes: %w", err)
	}
	return procsOf(all), nil
}

// RunDelay returns how long process pid's live threads have waited ready
// for a CPU: next to nothing alone on its CPUs.
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

// readProcStat reads /proc/PID/stat.
func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseProcPIDStat(pid, b)
}
