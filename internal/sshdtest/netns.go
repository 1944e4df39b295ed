package sshdtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Netns is a network namespace of its own joined to this one by a veth
// pair, so that what runs in it (sshd, a server) is reached across a real
// interface: HostIP is this side's address, NSIP the namespace's.
type Netns struct {
	// Name is the namespace's name (ip netns).
	Name string
	// HostIP and NSIP are the two ends of the veth pair's /30.
	HostIP, NSIP string
	// HostIf is this side's veth interface.
	HostIf string
}

// Packets is how many packets this side's veth end has sent and received.
func (n *Netns) Packets(t testing.TB) uint64 {
	t.Helper()
	var total uint64
	for _, f := range []string{"tx_packets", "rx_packets"} {
		b, err := os.ReadFile("/sys/class/net/" + n.HostIf + "/statistics/" + f)
		if err != nil {
			t.Fatal(err)
		}
		var v uint64
		fmt.Sscan(string(b), &v)
		total += v
	}
	return total
}

var netnsSeq atomic.Int32

// NewNetns creates a namespace with a veth pair and removes both when the
// test ends. Where namespaces are forbidden (not root, no CAP_NET_ADMIN,
// a sandbox) it skips the test saying so; a missing ip command fails it
// under CI=true and skips it otherwise.
func NewNetns(t testing.TB) *Netns {
	t.Helper()
	testkit.NeedCommand(t, "ip", "Debian's iproute2; the network namespace test needs it")
	n := int(netnsSeq.Add(1))
	id := (os.Getpid()*7 + n) % 16000
	// One /30 per namespace, 10.200.0.0/30 … 10.203.255.252/30, from id.
	third, fourth := 200+id/4096, id%4096
	base := fmt.Sprintf("10.%d.%d", third, fourth/64)
	sub := (fourth % 64) * 4
	ns := &Netns{
		Name:   fmt.Sprintf("kaeload-%d-%d", os.Getpid(), n),
		HostIP: fmt.Sprintf("%s.%d", base, sub+1),
		NSIP:   fmt.Sprintf("%s.%d", base, sub+2),
	}
	hostIf, nsIf := fmt.Sprintf("klh%d", id), fmt.Sprintf("kln%d", id)
	ns.HostIf = hostIf
	if out, err := exec.Command("ip", "netns", "add", ns.Name).CombinedOutput(); err != nil {
		t.Skipf("network namespaces are not allowed here (ip netns add: %v: %s); skipping the veth test", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		_ = exec.Command("ip", "link", "del", hostIf).Run()
		_ = exec.Command("ip", "netns", "del", ns.Name).Run()
	})
	steps := [][]string{
		{"ip", "link", "add", hostIf, "type", "veth", "peer", "name", nsIf},
		{"ip", "link", "set", nsIf, "netns", ns.Name},
		{"ip", "addr", "add", ns.HostIP + "/30", "dev", hostIf},
		{"ip", "link", "set", hostIf, "up"},
		{"ip", "netns", "exec", ns.Name, "ip", "addr", "add", ns.NSIP + "/30", "dev", nsIf},
		{"ip", "netns", "exec", ns.Name, "ip", "link", "set", nsIf, "up"},
		{"ip", "netns", "exec", ns.Name, "ip", "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && strings.Contains(string(out), "Operation not permitted") {
				t.Skipf("veth pairs are not allowed here (%s: %s); skipping", strings.Join(s, " "), strings.TrimSpace(string(out)))
			}
			t.Fatalf("%s: %v: %s", strings.Join(s, " "), err, out)
		}
	}
	return ns
}

// Command returns cmd run inside the namespace.
func (n *Netns) Command(name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", n.Name, name}, args...)...)
}
