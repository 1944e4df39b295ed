package cpustat

import (
	"fmt"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
)

// TestRemoteTree: a tree sampled from stat text is accounted as a local
// one: the master and its worker, not their unrelated neighbour; the
// worker climbs to its master.
func TestRemoteTree(t *testing.T) {
	a := ParseRemoteProcs(`1 (systemd) S 0 1 1 0 -1 4194560 0 0 0 0 5 5 0 0 20 0 1 0 1 0 0
100 (nginx) S 1 100 100 0 -1 4194560 0 0 0 0 10 10 0 0 20 0 1 0 500 0 0
101 (nginx) S 100 100 100 0 -1 4194560 0 0 0 0 100 50 0 0 20 0 1 0 501 0 0
200 (sshd: root) S 1 200 200 0 -1 4194560 0 0 0 0 70 70 0 0 20 0 1 0 600 0 0
garbage
`)
	b := ParseRemoteProcs(`100 (nginx) S 1 100 100 0 -1 4194560 0 0 0 0 10 20 0 0 20 0 1 0 500 0 0
101 (nginx) S 100 100 100 0 -1 4194560 0 0 0 0 300 150 0 0 20 0 1 0 501 0 0
200 (sshd: root) S 1 200 200 0 -1 4194560 0 0 0 0 900 900 0 0 20 0 1 0 600 0 0
`)
	if got := a.FamilyRoot(101); got != 100 {
		t.Errorf("family root of 101 = %d, want 100", got)
	}
	if a.Comm(200) != "sshd: root" {
		t.Errorf("comm %q", a.Comm(200))
	}
	cpus := pinning.Set{0, 1}
	ta, err := a.Tree(100, cpus)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := b.Tree(100, cpus)
	if err != nil {
		t.Fatal(err)
	}
	u := ta.Usage(tb, time.Second)
	// master +10 ticks, worker +200 +100: 310 ticks; sshd is not in the tree
	if got, want := u.Seconds, 3.1; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("tree used %.2f s, want %.2f", got, want)
	}
	if _, err := a.Tree(999, cpus); err == nil {
		t.Error("no error for a missing root")
	}
}

// TestRemoteOthers: another machine's busiest processes on the server's
// CPUs are ranked as this machine's are (ProcsSample.Top), from its stat
// lines (own time, nice) and the affinity read there (ParseAllowed of
// AllowedScript's output): the server's tree left out, a process that
// may not run on the server's CPUs left out, one whose affinity was not
// read not named.
func TestRemoteOthers(t *testing.T) {
	a := ParseRemoteProcs(`100 (nginx) S 1 100 100 0 -1 4194560 0 0 0 0 10 10 0 0 20 0 1 0 500 0 0
101 (nginx) S 100 100 100 0 -1 4194560 0 0 0 0 100 50 0 0 20 0 1 0 501 0 0
300 (sh) R 1 300 300 0 -1 4194560 0 0 0 0 0 0 0 0 30 10 1 0 700 0 0
301 (gzip) R 1 301 301 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 701 0 0
302 (make) R 1 302 302 0 -1 4194560 0 0 0 0 0 0 0 0 20 -5 1 0 702 0 0
`)
	b := ParseRemoteProcs(`100 (nginx) S 1 100 100 0 -1 4194560 0 0 0 0 10 20 0 0 20 0 1 0 500 0 0
101 (nginx) S 100 100 100 0 -1 4194560 0 0 0 0 300 150 0 0 20 0 1 0 501 0 0
300 (sh) R 1 300 300 0 -1 4194560 0 0 0 0 80 0 0 0 30 10 1 0 700 0 0
301 (gzip) R 1 301 301 0 -1 4194560 0 0 0 0 90 0 0 0 20 0 1 0 701 0 0
302 (make) R 1 302 302 0 -1 4194560 0 0 0 0 50 0 0 0 20 -5 1 0 702 0 0
`)
	pa, pb := a.Procs(), b.Procs()
	tree := []int{100, 101}
	used := pa.Used(pb, tree)
	if got, want := fmt.Sprint(used), "[300 301 302]"; got != want {
		t.Fatalf("Used = %s, want %s", got, want)
	}
	if got, want := AllowedScript(used), "grep -H Cpus_allowed_list /proc/300/status /proc/301/status /proc/302/status 2>/dev/null; true"; got != want {
		t.Errorf("AllowedScript = %q, want %q", got, want)
	}
	// What grep -H prints; 302's line is missing (it exited).
	allowed := ParseAllowed("/proc/300/status:Cpus_allowed_list:\t0\n/proc/301/status:Cpus_allowed_list:\t2-3\nnoise\n")
	if got, want := fmt.Sprint(allowed), "map[300:0 301:2-3]"; got != want {
		t.Errorf("ParseAllowed = %s, want %s", got, want)
	}
	top := pa.TopAllowed(pb, pinning.Set{0}, tree, 3, allowed)
	if len(top) != 1 || top[0].PID != 300 || top[0].Comm != "sh" || top[0].Nice != 10 || top[0].CPUs != "0" || top[0].Seconds != 0.8 {
		t.Errorf("TopAllowed = %+v, want sh (pid 300, nice 10, CPUs 0) 0.80 CPU-s alone", top)
	}
}
