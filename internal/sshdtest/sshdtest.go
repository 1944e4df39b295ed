// Package sshdtest starts a real OpenSSH server on 127.0.0.1 for tests,
// as the current user with throwaway keys, stopped when the test ends.
// A missing sshd skips the test, and fails it under CI=true.
package sshdtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Server is a running sshd: Addr is its address (host:port, as is the
// address in URL, ssh://user@host:port for the current user), Dir holds
// the configuration, keys, log and Home, and Key is the user's private key.
type Server struct {
	Addr string
	Port int
	Dir  string
	// Home is the login's $HOME for sessions of this sshd (SetEnv), so
	// that what a test leaves there (kaeload's binary cache) stays in Dir.
	Home string
	Key  string
	URL  string
}

// Binary returns the sshd path, skipping the test outside CI when there
// is none and failing it under CI=true.
func Binary(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			if _, err := exec.LookPath("ssh"); err == nil {
				return p
			}
		}
	}
	testkit.Missing(t, "sshd or ssh not installed (apt-get install -y openssh-server openssh-client); skipping the ssh test")
	return ""
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

// Start starts sshd on 127.0.0.1 and waits until it accepts connections.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartIn(t, nil)
}

// StartIn starts sshd inside the network namespace ns, listening on its
// end of the veth pair (nil: this namespace, 127.0.0.1).
func StartIn(t testing.TB, ns *Netns) *Server {
	t.Helper()
	return StartWith(t, Config{Netns: ns})
}

// Config varies the sshd StartWith starts.
type Config struct {
	// Netns, when set, runs sshd in that namespace (see StartIn).
	Netns *Netns
	// MaxSessions is sshd's MaxSessions (0: 100).
	MaxSessions int
}

// StartWith starts sshd as cfg says.
func StartWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 100
	}
	bin := Binary(t)
	dir := t.TempDir()
	s := &Server{Dir: dir, Home: filepath.Join(dir, "home"), Key: filepath.Join(dir, "id_ed25519")}
	if err := os.Mkdir(s.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	hostPub := s.writeKeys(t)
	if os.Geteuid() == 0 {
		// sshd run as root wants its privilege separation directory.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	user := os.Getenv("USER")
	if out, err := exec.Command("id", "-un").Output(); err == nil {
		user = strings.TrimSpace(string(out))
	}
	ip := "127.0.0.1"
	if cfg.Netns != nil {
		ip = cfg.Netns.NSIP
	}
	testkit.WithFreePorts(t, 1, func(ports []int) error {
		s.Port, s.Addr = ports[0], net.JoinHostPort(ip, fmt.Sprint(ports[0]))
		s.URL = fmt.Sprintf("ssh://%s@%s", user, s.Addr)
		s.writeConfig(t, ip, hostPub, cfg.MaxSessions)
		args := []string{"-D", "-e", "-f", filepath.Join(s.Dir, "sshd_config")}
		cmd := exec.Command(bin, args...)
		if cfg.Netns != nil {
			cmd = cfg.Netns.Command(bin, args...)
		}
		logf, err := os.Create(filepath.Join(s.Dir, "sshd.log"))
		if err != nil {
			t.Fatal(err)
		}
		defer logf.Close()
		cmd.Stdout, cmd.Stderr = logf, logf
		// StartServer's cleanup stops the group: the listener and every
		// session it forked.
		if err := testkit.StartServer(t, cmd, nil, 10*time.Second, s.Addr); err != nil {
			return fmt.Errorf("sshd did not start: %v\nlog: %s", err, s.Log())
		}
		return nil
	})
	return s
}

// writeKeys writes the host key and the user's key, the latter
// authorized, and returns the host's public key.
func (s *Server) writeKeys(t testing.TB) []byte {
	t.Helper()
	for _, k := range []string{"host_key", "id_ed25519"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "kaeload-test", "-f", filepath.Join(s.Dir, k)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(s.Key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "authorized_keys"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	hostPub, err := os.ReadFile(filepath.Join(s.Dir, "host_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	return hostPub
}

// writeConfig writes sshd_config for s.Port and the client's known_hosts.
func (s *Server) writeConfig(t testing.TB, ip string, hostPub []byte, maxSessions int) {
	t.Helper()
	conf := fmt.Sprintf(`Port %d
ListenAddress `+ip+`
HostKey %[2]s/host_key
PidFile %[2]s/sshd.pid
AuthorizedKeysFile %[2]s/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowTcpForwarding no
X11Forwarding no
PrintMotd no
MaxSessions %[4]d
MaxStartups 100
SetEnv HOME=%[3]s
LogLevel VERBOSE
`, s.Port, s.Dir, s.Home, maxSessions)
	if err := os.WriteFile(filepath.Join(s.Dir, "sshd_config"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	known := fmt.Sprintf("[%s]:%d %s", ip, s.Port, hostPub)
	if err := os.WriteFile(filepath.Join(s.Dir, "known_hosts"), []byte(known), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Log returns sshd's log so far (for a failing test's message).
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}
