package cpustat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/pinning"
)

// RemoteProcs is a snapshot of another machine's processes from the text
// of their /proc/PID/stat files (`cat /proc/[0-9]*/stat` over ssh).
type RemoteProcs struct {
	procs map[int]procStat
}

// ParseRemoteProcs parses the stat lines, skipping those that do not
// parse (a process that exited while cat ran).
func ParseRemoteProcs(text string) RemoteProcs {
	rp := RemoteProcs{procs: map[int]procStat{}}
	for _, line := range strings.Split(text, "\n") {
		head, _, _ := strings.Cut(line, "(")
		pid, err := strconv.Atoi(strings.TrimSpace(head))
		if st, err2 := parseProcPIDStat(pid, []byte(line)); err == nil && err2 == nil {
			rp.procs[pid] = st
		}
	}
	return rp
}

// Procs returns the snapshot as a ProcsSample, to rank another machine's
// busiest processes as this one's (ProcsSample.TopAllowed).
func (rp RemoteProcs) Procs() ProcsSample { return procsOf(rp.procs) }

// AllowedScript prints, for ParseAllowed, the Cpus_allowed_list line of
// each of pids still alive (grep -H).
func AllowedScript(pids []int) string {
	var b strings.Builder
	b.WriteString("grep -H Cpus_allowed_list")
	for _, p := range pids {
		b.WriteString(" /proc/" + strconv.Itoa(p) + "/status")
	}
	b.WriteString(" 2>/dev/null; true")
	return b.String()
}

// ParseAllowed reads AllowedScript's output: each process's affinity by PID.
func ParseAllowed(text string) map[int]pinning.Set {
	out := map[int]pinning.Set{}
	for _, line := range strings.Split(text, "\n") {
		path, list, ok := strings.Cut(line, ":Cpus_allowed_list:")
		pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/proc/"), "/status"))
		if set, err2 := pinning.Parse(strings.TrimSpace(list)); ok && err == nil && err2 == nil && len(set) > 0 {
			out[pid] = set
		}
	}
	return out
}

// FamilyRoot climbs from pid through parents with the same command name
// (an nginx worker to its master), stopping below PID 1.
func (rp RemoteProcs) FamilyRoot(pid int) int {
	for {
		p := rp.procs[pid] // zero when unknown: no parent
		parent, ok := rp.procs[p.ppid]
		if p.ppid <= 1 || !ok || parent.comm != p.comm {
			return pid
		}
		pid = p.ppid
	}
}

// Comm is pid's command name ("" when unknown).
func (rp RemoteProcs) Comm(pid int) string { return rp.procs[pid].comm }

// Tree samples root and its descendants as SampleTree does here; cpus
// (the machine's) stands for the tree's affinity, not readable from here.
func (rp RemoteProcs) Tree(root int, cpus pinning.Set) (TreeSample, error) {
	if _, ok := rp.procs[root]; !ok {
		return TreeSample{}, fmt.Errorf("sample process tree of %d: no such process", root)
	}
	ts := newTree(root, rp.procs)
	ts.CPUs = cpus
	return ts, nil
}
