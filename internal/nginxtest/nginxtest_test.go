package nginxtest

import (
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func get(t *testing.T, c *http.Client, url string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
}

// TestSessionReuse checks the helper's two modes against a client that
// always offers resumption: off means every logged handshake is full.
func TestSessionReuse(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		s := Start(t, Config{SessionReuse: reuse, Protocols: "TLSv1.2"})
		cache := tls.NewLRUClientSessionCache(4)
		for i := 0; i < 3; i++ {
			tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ClientSessionCache: cache}, DisableKeepAlives: true}
			get(t, &http.Client{Transport: tr}, "https://"+s.Addr+"/index.html")
		}
		lines := s.Log(t)
		if got, want := len(lines), 3; got != want {
			t.Fatalf("reuse=%v: %d log lines, want %d", reuse, got, want)
		}
		reused := 0
		for _, l := range lines {
			if l.Reused {
				reused++
			}
			if l.Protocol != "TLSv1.2" {
				t.Errorf("protocol %q, want TLSv1.2", l.Protocol)
			}
		}
		if reuse && reused != 2 || !reuse && reused != 0 {
			t.Errorf("reuse=%v: %d of 3 handshakes resumed", reuse, reused)
		}
	}
}

func TestParseLine(t *testing.T) {
	l, err := ParseLine("1764680000.123 200 . TLSv1.3 TLS_AES_256_GCM_SHA384 853 7 1")
	if err != nil {
		t.Fatal(err)
	}
	if l.Time.UnixMilli() != 1764680000123 || l.Status != 200 || l.Reused || l.Protocol != "TLSv1.3" ||
		l.Cipher != "TLS_AES_256_GCM_SHA384" || l.Bytes != 853 || l.Conn != 7 || l.ConnReqs != 1 {
		t.Errorf("got %+v", l)
	}
	if _, err := ParseLine("garbage"); err == nil {
		t.Error("garbage parsed without error")
	}
}

// TestBacklog: the listen backlog asked for is the listening socket's, as
// the kernel shows it (ss: Send-Q of a LISTEN socket is its backlog), and
// the default is the system's largest (net.core.somaxconn caps 65535).
func TestBacklog(t *testing.T) {
	ss, err := exec.LookPath("ss")
	if err != nil {
		t.Skip("ss (iproute2) not installed: cannot read a listener's backlog")
	}
	somaxconn, err := os.ReadFile("/proc/sys/net/core/somaxconn")
	if err != nil {
		t.Fatal(err)
	}
	largest, err := strconv.Atoi(strings.TrimSpace(string(somaxconn)))
	if err != nil {
		t.Fatal(err)
	}
	backlogOf := func(addr string) string {
		out, err := exec.Command(ss, "-Hltn", "src", addr).Output()
		if err != nil {
			t.Fatalf("ss: %v", err)
		}
		f := strings.Fields(string(out)) // State Recv-Q Send-Q Local Peer
		if len(f) < 4 {
			t.Fatalf("ss -ltn src %s: %q, want the listener", addr, out)
		}
		return f[2]
	}
	for _, tc := range []struct{ backlog, want int }{{8, 8}, {0, min(65535, largest)}} {
		s := Start(t, Config{Backlog: tc.backlog})
		if got := backlogOf(s.Addr); got != strconv.Itoa(tc.want) {
			t.Errorf("Backlog %d: the listener's backlog is %q, want %d", tc.backlog, got, tc.want)
		}
	}
	// One nginx, two listeners: each with its backlog.
	s := Start(t, Config{Backlog: 8, MoreBacklogs: []int{16}})
	if got, more := backlogOf(s.Addr), backlogOf(s.MoreAddrs[0]); got != "8" || more != "16" {
		t.Errorf("Backlog 8, MoreBacklogs [16]: the listeners' backlogs are %q and %q", got, more)
	}
}
