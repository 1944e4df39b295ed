package cpustat

import (
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
