// Package nginxtest starts a private nginx on 127.0.0.1 for tests and
// parses its access log, so tests can check kaeload's counts against the
// server's. Without nginx a test skips, and fails under CI=true.
package nginxtest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/target"
)

// Config describes the nginx to start.
type Config struct {
	Cert              string            // a target.CertKinds; default rsa2048
	CPUs              string            // pins master and workers, taskset style; "" = unpinned
	Protocols         string            // ssl_protocols; default "TLSv1.2 TLSv1.3"
	Ciphers           string            // ssl_ciphers (TLS 1.2, OpenSSL names); "" = nginx's
	SessionReuse      bool              // session cache and tickets; off: every handshake is full
	Env               map[string]string // added to nginx's environment
	Location          string            // the body of "location / { … }", e.g. "return 503;"; "": index.html
	HTTP              string            // added to the http block
	WorkerConnections int               // default 4096; the open-file limit is twice it
	Backlog           int               // 0: 65535, capped at net.core.somaxconn; a small one overflows
	MoreBacklogs      []int             // a listener of the same site for each (Server.MoreAddrs)
}

// Server is a running nginx.
type Server struct {
	Addr      string   // the HTTPS listener on 127.0.0.1
	MoreAddrs []string // the listeners of Config.MoreBacklogs, in order
	Dir       string   // configuration, certificate, logs and document root
	Cmd       *exec.Cmd
}

// Line is one access-log entry.
type Line struct {
	Time     time.Time // $msec: when the request finished
	Status   int
	Reused   bool // $ssl_session_reused == "r"
	Protocol string
	Cipher   string // OpenSSL's name
	Bytes    int    // $bytes_sent
	Conn     uint64 // $connection
	ConnReqs int    // $connection_requests
}

// Binary returns the nginx path; without one, the test skips (fails under CI=true).
func Binary(t testing.TB) string {
	t.Helper()
	return testkit.NeedCommand(t, "nginx", "apt-get install -y nginx", "/usr/sbin/nginx")
}

const confTemplate = `daemon off;
%[5]s
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
worker_rlimit_nofile %[8]d;
events { worker_connections %[7]d; }
http {
    access_log off;
%[9]s
    client_body_temp_path %[1]s/tmp;
    proxy_temp_path %[1]s/tmp;
    fastcgi_temp_path %[1]s/tmp;
    uwsgi_temp_path %[1]s/tmp;
    scgi_temp_path %[1]s/tmp;
    log_format kaeload '$msec $status $ssl_session_reused $ssl_protocol $ssl_cipher $bytes_sent $connection $connection_requests';
    server {
%[2]s        server_name localhost;
        ssl_certificate %[1]s/cert.pem;
        ssl_certificate_key %[1]s/key.pem;
        ssl_protocols %[3]s;
%[4]s
        access_log %[1]s/access.log kaeload;
        root %[1]s/www;
        location / { %[6]s }
    }
}
`

// Start starts nginx in a temporary directory on free loopback ports, waits
// until it accepts connections and stops it when the test ends.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := Binary(t)
	cfg.Cert = cmp.Or(cfg.Cert, "rsa2048")
	cfg.Protocols = cmp.Or(cfg.Protocols, "TLSv1.2 TLSv1.3")
	cfg.WorkerConnections = cmp.Or(cfg.WorkerConnections, 4096)
	cfg.Backlog = cmp.Or(cfg.Backlog, 65535)
	s := &Server{Dir: t.TempDir()}
	certPEM, keyPEM, err := target.GenerateCert(cfg.Cert)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"tmp", "www"} {
		if err := os.Mkdir(filepath.Join(s.Dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	index := bytes.Repeat([]byte("kaeload nginx test page\n"), 26) // ~600 bytes, like a small index.html
	for name, b := range map[string][]byte{"cert.pem": certPEM, "key.pem": keyPEM, "www/index.html": index} {
		testkit.WriteFile(t, filepath.Join(s.Dir, name), b)
	}
	var cpus pinning.Set
	if cfg.CPUs != "" {
		if cpus, err = pinning.Parse(cfg.CPUs); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WithFreePorts(t, 1+len(cfg.MoreBacklogs), func(ports []int) error {
		var addrs []string
		for _, p := range ports {
			addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", p))
		}
		s.Addr, s.MoreAddrs = addrs[0], addrs[1:]
		confPath := filepath.Join(s.Dir, "nginx.conf")
		testkit.WriteFile(t, confPath, s.config(cfg))
		s.Cmd = exec.Command(bin, "-e", filepath.Join(s.Dir, "error.log"), "-p", s.Dir, "-c", confPath)
		s.Cmd.Env = os.Environ()
		for k, v := range cfg.Env {
			s.Cmd.Env = append(s.Cmd.Env, k+"="+v)
		}
		var stderr bytes.Buffer
		s.Cmd.Stderr = &stderr
		start := func(cmd *exec.Cmd) error { return pinning.Start(cmd, cpus) }
		if err := testkit.StartServer(t, s.Cmd, start, 5*time.Second, testkit.Accepting(addrs...)); err != nil {
			errLog, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
			return fmt.Errorf("nginx did not start: %v\nstderr: %s\nerror.log: %s", err, stderr.String(), errLog)
		}
		return nil
	})
	return s
}

// config returns nginx.conf for cfg, listening on s.Addr, then s.MoreAddrs
// for cfg.MoreBacklogs.
func (s *Server) config(cfg Config) string {
	var listen, extra strings.Builder
	backlogs := append([]int{cfg.Backlog}, cfg.MoreBacklogs...)
	for i, addr := range append([]string{s.Addr}, s.MoreAddrs...) {
		fmt.Fprintf(&listen, "        listen %s ssl backlog=%d;\n", addr, backlogs[i])
	}
	if cfg.Ciphers != "" {
		fmt.Fprintf(&extra, "        ssl_ciphers %s;\n        ssl_prefer_server_ciphers on;\n", cfg.Ciphers)
	}
	cache, tickets := "off", "off"
	if cfg.SessionReuse {
		cache, tickets = "shared:SSL:1m", "on"
	}
	fmt.Fprintf(&extra, "        ssl_session_cache %s;\n        ssl_session_tickets %s;\n", cache, tickets)
	// Run as root, nginx workers drop to "nobody", who cannot enter the
	// test's private temporary directory: keep them as the current user.
	userLine := ""
	if os.Geteuid() == 0 {
		userLine = "user root;"
	}
	return fmt.Sprintf(confTemplate, s.Dir, listen.String(), cfg.Protocols, extra.String(), userLine,
		cfg.Location, cfg.WorkerConnections, 2*cfg.WorkerConnections, cfg.HTTP)
}

// PIDs returns the master's and its workers' process IDs.
func (s *Server) PIDs() []int {
	pids := []int{s.Cmd.Process.Pid}
	if p, err := process.NewProcess(int32(pids[0])); err == nil {
		children, _ := p.Children()
		for _, c := range children {
			pids = append(pids, int(c.Pid))
		}
	}
	return pids
}

// Log returns the access log's lines. nginx writes a line just after the
// response leaves, so Log waits until the file has stopped growing.
func (s *Server) Log(t testing.TB) []Line {
	t.Helper()
	path := filepath.Join(s.Dir, "access.log")
	for i, last := 0, int64(-1); i < 50; i++ {
		size := int64(0)
		if st, err := os.Stat(path); err == nil {
			size = st.Size()
		}
		if size == last {
			break
		}
		last = size
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return ReadLog(t, path)
}

// ReadLog parses an access log written with nginxtest's log_format (the
// one examples/local-nginx uses too).
func ReadLog(t testing.TB, path string) []Line {
	t.Helper()
	var lines []Line
	for text := range strings.Lines(string(testkit.ReadFile(t, path))) {
		l, err := ParseLine(strings.TrimSuffix(text, "\n"))
		if err != nil {
			t.Fatalf("%s:%d: %v", path, len(lines)+1, err)
		}
		lines = append(lines, l)
	}
	return lines
}

// ParseLine parses one line of the kaeload log_format.
func ParseLine(s string) (Line, error) {
	var l Line
	var sec, ms int64
	var reused string
	_, err := fmt.Sscanf(s, "%d.%d %d %s %s %s %d %d %d", &sec, &ms, &l.Status, &reused, &l.Protocol, &l.Cipher,
		&l.Bytes, &l.Conn, &l.ConnReqs)
	if n := len(strings.Fields(s)); err == nil && n != 8 {
		err = fmt.Errorf("want 8 fields, got %d", n)
	}
	if err != nil {
		return Line{}, fmt.Errorf("access log line %q: %w", s, err)
	}
	l.Time, l.Reused = time.Unix(sec, ms*int64(time.Millisecond)), reused == "r"
	return l, nil
}
