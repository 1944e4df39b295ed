package cpustat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/pinning"
)

// RemoteProcs is a snapshot of another machine's processes: the text of
// its /proc/PID/stat files, one per line (`cat /proc/[0-9]*/stat`), read
// over ssh. It samples a process tree there as SampleTree does here.
type RemoteProcs struct {
	procs    map[int]remoteProc
	children map[int][]int
}

// remoteProc is one parsed /proc/PID/stat line.
type remoteProc struct {
	comm    string
	key     procKey
	ppid    int
	seconds float64 // utime + stime + cutime + cstime
	own     float64 // utime + stime
	nice    int
}

// ParseRemoteProcs parses the stat lines; lines that do not parse (a
// process that exited while cat ran) are skipped.
func ParseRemoteProcs(text string) RemoteProcs {
	rp := RemoteProcs{procs: map[int]remoteProc{}, children: map[int][]int{}}
	for _, line := range strings.Split(text, "\n") {
		p, pid, ok := parseStatLine(line)
		if !ok {
			continue
		}
		rp.procs[pid] = p
		rp.children[p.ppid] = append(rp.children[p.ppid], pid)
	}
	return rp
}

// parseStatLine parses "PID (comm) S PPID … utime stime cutime cstime … starttime …".
func parseStatLine(line string) (remoteProc, int, bool) {
	open, close := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 1 || close < open {
		return remoteProc{}, 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil {
		return remoteProc{}, 0, false
	}
	f := strings.Fields(line[close+1:]) // f[0] is field 3 (state)
	const first = 3
	var v [6]uint64
	for j, n := range []int{4, 14, 15, 16, 17, 22} { // ppid utime stime cutime cstime starttime
		if n-first >= len(f) {
			return remoteProc{}, 0, false
		}
		x, err := strconv.ParseUint(f[n-first], 10, 64)
		if err != nil {
			return remoteProc{}, 0, false
		}
		v[j] = x
	}
	if 19-first >= len(f) {
		return remoteProc{}, 0, false
	}
	nice, err := strconv.Atoi(f[19-first]) // signed
	if err != nil {
		return remoteProc{}, 0, false
	}
	return remoteProc{
		comm:    line[open+1 : close],
		key:     procKey{pid: pid, start: v[5]},
		ppid:    int(v[0]),
		seconds: float64(v[1]+v[2]+v[3]+v[4]) / UserHZ,
		own:     float64(v[1]+v[2]) / UserHZ,
		nice:    nice,
	}, pid, true
}

// Procs returns the snapshot as a ProcsSample, so that the busiest
// processes of another machine are ranked as this machine's are
// (ProcsSample.TopAllowed).
func (rp RemoteProcs) Procs() ProcsSample {
	s := ProcsSample{procs: make(map[procKey]procStat, len(rp.procs))}
	for _, p := range rp.procs {
		s.procs[p.key] = procStat{key: p.key, ppid: p.ppid, seconds: p.seconds, own: p.own, comm: p.comm, nice: p.nice}
	}
	return s
}

// AllowedScript prints the Cpus_allowed_list of each of pids, one
// "/proc/PID/status:Cpus_allowed_list:\tLIST" line each (grep -H), for
// ParseAllowed; processes that are gone are left out.
func AllowedScript(pids []int) string {
	var b strings.Builder
	b.WriteString("grep -H Cpus_allowed_list")
	for _, p := range pids {
		b.WriteString(" /proc/" + strconv.Itoa(p) + "/status")
	}
	b.WriteString(" 2>/dev/null; true")
	return b.String()
}

// ParseAllowed reads AllowedScript's output: each process's affinity by
// PID. Lines that do not parse are left out.
func ParseAllowed(text string) map[int]pinning.Set {
	out := map[int]pinning.Set{}
	for _, line := range strings.Split(text, "\n") {
		path, list, ok := strings.Cut(line, ":Cpus_allowed_list:")
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/proc/"), "/status"))
		if err != nil {
			continue
		}
		set, err := pinning.Parse(strings.TrimSpace(list))
		if err != nil || len(set) == 0 {
			continue
		}
		out[pid] = set
	}
	return out
}

// FamilyRoot climbs from pid through parents with the same command name
// (an nginx worker to its master), stopping below PID 1.
func (rp RemoteProcs) FamilyRoot(pid int) int {
	for {
		p, ok := rp.procs[pid]
		if !ok || p.ppid <= 1 {
			return pid
		}
		parent, ok := rp.procs[p.ppid]
		if !ok || parent.comm != p.comm {
			return pid
		}
		pid = p.ppid
	}
}

// Comm is pid's command name ("" when unknown).
func (rp RemoteProcs) Comm(pid int) string { return rp.procs[pid].comm }

// Tree samples root and its descendants as SampleTree does on this
// machine. The tree's affinity cannot be read from here: cpus (the
// machine's CPUs) stands for it.
func (rp RemoteProcs) Tree(root int, cpus pinning.Set) (TreeSample, error) {
	if _, ok := rp.procs[root]; !ok {
		return TreeSample{}, fmt.Errorf("sample process tree of %d: no such process", root)
	}
	ts := TreeSample{Root: root, Comm: rp.Comm(root), CPUs: cpus, procs: map[procKey]float64{}, alive: make(map[procKey]struct{}, len(rp.procs))}
	for _, p := range rp.procs {
		ts.alive[p.key] = struct{}{}
	}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		p := rp.procs[pid]
		if _, dup := ts.procs[p.key]; dup {
			continue
		}
		ts.procs[p.key] = p.seconds
		ts.Seconds += p.seconds
		ts.PIDs = append(ts.PIDs, pid)
		queue = append(queue, rp.children[pid]...)
	}
	return ts, nil
}
