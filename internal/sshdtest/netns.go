package sshdtest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Netns is a network namespace of its own joined to this one by a veth
// pair, so that what runs in it (sshd, a server) is reached across a real
// interface: HostIP is this side's address, NSIP the namespace's.
type Netns struct {
	Name         string // the namespace's name (ip netns)
	HostIP, NSIP string // the two ends of the veth pair's /30
	HostIf       string // this side's veth interface
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
		v, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
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
	// One /30 per namespace in 10.200.0.0/16, from id.
	ns := &Netns{
		Name:   fmt.Sprintf("kaeload-%d-%d", os.Getpid(), n),
		HostIP: fmt.Sprintf("10.200.%d.%d", id*4/256, id*4%256+1),
		NSIP:   fmt.Sprintf("10.200.%d.%d", id*4/256, id*4%256+2),
		HostIf: fmt.Sprintf("klh%d", id),
	}
	nsIf := fmt.Sprintf("kln%d", id)
	if out, err := exec.Command("ip", "netns", "add", ns.Name).CombinedOutput(); err != nil {
		t.Skipf("network namespaces are not allowed here (ip netns add: %v: %s); skipping the veth test", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		_ = exec.Command("ip", "link", "del", ns.HostIf).Run()
		_ = exec.Command("ip", "netns", "del", ns.Name).Run()
	})
	inNS := "netns exec " + ns.Name + " ip "
	for _, s := range []string{
		"link add " + ns.HostIf + " type veth peer name " + nsIf,
		"link set " + nsIf + " netns " + ns.Name,
		"addr add " + ns.HostIP + "/30 dev " + ns.HostIf,
		"link set " + ns.HostIf + " up",
		inNS + "addr add " + ns.NSIP + "/30 dev " + nsIf,
		inNS + "link set " + nsIf + " up",
		inNS + "link set lo up",
	} {
		if out, err := exec.Command("ip", strings.Fields(s)...).CombinedOutput(); err != nil {
			if strings.Contains(string(out), "Operation not permitted") {
				t.Skipf("veth pairs are not allowed here (ip %s: %s); skipping", s, strings.TrimSpace(string(out)))
			}
			t.Fatalf("ip %s: %v: %s", s, err, out)
		}
	}
	return ns
}
