// Package sshdtest starts a real OpenSSH server on 127.0.0.1 for tests,
// as the current user with throwaway keys, stopped when the test ends.
// A missing sshd skips the test, and fails it under CI=true.
package sshdtest

import (
	"cmp"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Server is a running sshd.
type Server struct {
	Addr, URL string // host:port; ssh://user@host:port for the current user
	Port      int
	Dir       string // configuration, keys, log and Home
	Home      string // the sessions' $HOME (SetEnv): what tests leave there stays in Dir
	Key       string // the user's private key
}

// Binary returns the sshd path, skipping the test outside CI when it or
// ssh is missing and failing it under CI=true.
func Binary(t testing.TB) string {
	t.Helper()
	testkit.NeedCommand(t, "ssh", "apt-get install -y openssh-client")
	return testkit.NeedCommand(t, "sshd", "apt-get install -y openssh-server", "/usr/sbin/sshd", "/usr/local/sbin/sshd")
}

// Options are the ssh client options that reach this server with the
// throwaway key and check its host key, for ssh_options or -o.
func (s *Server) Options() [][2]string {
	return [][2]string{
		{"IdentityFile", s.Key},
		{"IdentitiesOnly", "yes"},
		{"UserKnownHostsFile", filepath.Join(s.Dir, "known_hosts")},
		{"StrictHostKeyChecking", "yes"},
		{"LogLevel", "ERROR"},
	}
}

// YAMLOptions is Options as a YAML flow mapping, for ssh_options:.
func (s *Server) YAMLOptions() string {
	var parts []string
	for _, o := range s.Options() {
		parts = append(parts, fmt.Sprintf("%s: %q", o[0], o[1]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Config varies the sshd Start starts.
type Config struct {
	Netns       *Netns // runs sshd there, on its end of the veth pair; nil: here, on 127.0.0.1
	MaxSessions int    // sshd's MaxSessions (0: 100)
}

const confTemplate = `Port %d
ListenAddress %s
HostKey %[3]s/host_key
PidFile %[3]s/sshd.pid
AuthorizedKeysFile %[3]s/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
AllowTcpForwarding no
PrintMotd no
MaxSessions %d
MaxStartups 100
SetEnv HOME=%s
LogLevel VERBOSE
`

// Start starts sshd as cfg says, with a fresh host key and user key, the
// latter authorized, and waits until it accepts connections.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	s := &Server{Dir: dir, Home: filepath.Join(dir, "home"), Key: filepath.Join(dir, "id_ed25519")}
	for _, k := range []string{"host_key", "id_ed25519"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "kaeload-test", "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	userPub := testkit.ReadFile(t, s.Key+".pub")
	testkit.WriteFile(t, filepath.Join(dir, "authorized_keys"), userPub) // tests append keys
	hostPub := testkit.ReadFile(t, filepath.Join(dir, "host_key.pub"))
	err := os.Mkdir(s.Home, 0o700)
	if err == nil && os.Geteuid() == 0 {
		// sshd run as root wants its privilege separation directory.
		err = os.MkdirAll("/run/sshd", 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	login := os.Getenv("USER")
	if me, err := user.Current(); err == nil {
		login = me.Username
	}
	ip, args := "127.0.0.1", []string{"-D", "-e", "-f", filepath.Join(dir, "sshd_config")}
	if cfg.Netns != nil {
		ip, args = cfg.Netns.NSIP, append([]string{"netns", "exec", cfg.Netns.Name, bin}, args...)
		bin = "ip"
	}
	testkit.WithFreePorts(t, 1, func(ports []int) error {
		s.Port, s.Addr = ports[0], net.JoinHostPort(ip, fmt.Sprint(ports[0]))
		s.URL = fmt.Sprintf("ssh://%s@%s", login, s.Addr)
		conf := fmt.Sprintf(confTemplate, s.Port, ip, dir, cmp.Or(cfg.MaxSessions, 100), s.Home)
		testkit.WriteFile(t, filepath.Join(dir, "sshd_config"), conf)
		testkit.WriteFile(t, filepath.Join(dir, "known_hosts"), fmt.Sprintf("[%s]:%d %s", ip, s.Port, hostPub))
		logf, err := os.Create(filepath.Join(dir, "sshd.log"))
		if err != nil {
			t.Fatal(err)
		}
		defer logf.Close()
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = logf, logf
		// StartServer's cleanup stops the group: the listener and every
		// session it forked.
		if err := testkit.StartServer(t, cmd, nil, 10*time.Second, testkit.Accepting(s.Addr)); err != nil {
			return fmt.Errorf("sshd did not start: %v\nlog: %s", err, s.Log())
		}
		return nil
	})
	return s
}

// Log returns sshd's log so far (for a failing test's message).
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}

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
		b := testkit.ReadFile(t, "/sys/class/net/"+n.HostIf+"/statistics/"+f)
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
