// Package sshdtest starts a real OpenSSH server on 127.0.0.1 for tests,
// as the current user with throwaway keys, stopped when the test ends.
// A missing sshd skips the test, and fails it under CI=true.
package sshdtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
)

// Server is a running sshd.
type Server struct {
	// Addr is 127.0.0.1:port.
	Addr string
	// Port is the port sshd listens on.
	Port int
	// Dir holds the configuration, keys, log and Home.
	Dir string
	// Home is the login's $HOME for sessions of this sshd (SetEnv), so
	// that what a test leaves there (kaeload's binary cache) stays in Dir.
	Home string
	// Key is the user's private key file.
	Key string
	// URL is ssh://user@127.0.0.1:port for the current user.
	URL string
	// Cmd is the sshd process.
	Cmd *exec.Cmd
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
	ns := cfg.Netns
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 100
	}
	bin := Binary(t)
	dir := t.TempDir()
	s := &Server{Dir: dir, Home: filepath.Join(dir, "home"), Key: filepath.Join(dir, "id_ed25519")}
	if err := os.Mkdir(s.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"host_key", "id_ed25519"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "kaeload-test", "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(s.Key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	hostPub, err := os.ReadFile(filepath.Join(dir, "host_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
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
	if ns != nil {
		ip = ns.NSIP
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := testkit.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		s.Port, s.Addr = port, net.JoinHostPort(ip, fmt.Sprint(port))
		s.URL = fmt.Sprintf("ssh://%s@%s", user, s.Addr)
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
`, port, dir, s.Home, cfg.MaxSessions)
		if err := os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		known := fmt.Sprintf("[%s]:%d %s", ip, port, hostPub)
		if err := os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(known), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
		if ns != nil {
			cmd = ns.Command(bin, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
		}
		logf, err := os.Create(filepath.Join(dir, "sshd.log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			logf.Close()
			t.Fatalf("start sshd: %v", err)
		}
		logf.Close()
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if err := testkit.WaitListening(s.Addr, exited, 10*time.Second); err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			log, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
			lastErr = fmt.Errorf("sshd did not start: %v\nlog: %s", err, log)
			if bytes.Contains(log, []byte("in use")) {
				continue
			}
			t.Fatal(lastErr)
		}
		s.Cmd = cmd
		t.Cleanup(func() {
			// The whole group: the listener and every session it forked.
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-exited
			}
		})
		return s
	}
	t.Fatal(lastErr)
	return nil
}

// Log returns sshd's log so far (for a failing test's message).
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}
