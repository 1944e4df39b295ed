package target

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// start listens with o and serves until the test ends.
func start(t *testing.T, o Options) *Server {
	t.Helper()
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Cert == "" && o.CertFile == "" {
		o.Cert = "ecdsa-p256" // fast to generate
	}
	s, err := Listen(o)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return 5 s after cancel")
		}
	})
	return s
}

// get sends one GET on c and reads the response.
func get(t *testing.T, c *tls.Conn, br *bufio.Reader, close bool) *http.Response {
	t.Helper()
	req := "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
	if close {
		req = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
	}
	if err := c.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatalf("write request: %v", err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp
}

// dialGet opens a TLS connection with cfg, sends one "Connection: close"
// request, checks that the server then closes, and returns the handshake state.
func dialGet(t *testing.T, addr string, cfg *tls.Config) tls.ConnectionState {
	t.Helper()
	c, err := tls.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	resp := get(t, c, br, true)
	if got, want := resp.StatusCode, 200; got != want {
		t.Errorf("status = %d, want %d", got, want)
	}
	// Reading to EOF also lets a TLS 1.3 client take in the session ticket.
	if n, err := io.Copy(io.Discard, br); err != nil || n != 0 {
		t.Errorf("after a Connection: close response: read %d bytes, err %v; want the server to close (0, nil)", n, err)
	}
	return c.ConnectionState()
}

func TestResumption(t *testing.T) {
	for _, tc := range []struct {
		name       string
		resumption bool
		version    uint16
	}{
		{"off/TLS1.2", false, tls.VersionTLS12},
		{"off/TLS1.3", false, tls.VersionTLS13},
		{"on/TLS1.2", true, tls.VersionTLS12},
		{"on/TLS1.3", true, tls.VersionTLS13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, Options{Resumption: tc.resumption})
			cfg := &tls.Config{
				InsecureSkipVerify: true,
				MinVersion:         tc.version,
				MaxVersion:         tc.version,
				ClientSessionCache: tls.NewLRUClientSessionCache(4),
			}
			first := dialGet(t, s.Addr(), cfg)
			second := dialGet(t, s.Addr(), cfg)
			if got, want := first.Version, tc.version; got != want {
				t.Errorf("version = %x, want %x", got, want)
			}
			if first.DidResume {
				t.Errorf("first handshake resumed")
			}
			if got, want := second.DidResume, tc.resumption; got != want {
				t.Errorf("second handshake DidResume = %v, want %v", got, want)
			}
			var wantResumed uint64
			if tc.resumption {
				wantResumed = 1
			}
			if got, want := s.Stats(), (Stats{Connections: 2, Handshakes: 2, Resumed: wantResumed, Requests: 2}); got != want {
				t.Errorf("Stats = %+v, want %+v", got, want)
			}
		})
	}
}

func TestKeepAliveStats(t *testing.T) {
	body := []byte("hello, kaeload")
	s := start(t, Options{Body: body})
	c, err := tls.Dial("tcp", s.Addr(), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	const n = 5
	for i := range n {
		resp := get(t, c, br, i == n-1)
		if got, want := resp.StatusCode, 200; got != want {
			t.Errorf("request %d: status = %d, want %d", i, got, want)
		}
		if got, want := resp.ContentLength, int64(len(body)); got != want {
			t.Errorf("request %d: content length = %d, want %d", i, got, want)
		}
		if got, want := resp.Close, i == n-1; got != want {
			t.Errorf("request %d: response Close = %v, want %v", i, got, want)
		}
	}
	if got, want := s.Stats(), (Stats{Connections: 1, Handshakes: 1, Requests: n}); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

func TestServeClosesConnections(t *testing.T) {
	s, err := Listen(Options{Addr: "127.0.0.1:0", Cert: "ecdsa-p256"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()

	c, err := tls.Dial("tcp", s.Addr(), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	get(t, c, br, false) // the connection is now idle, kept alive
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return 5 s after cancel")
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("read on an idle connection after Serve returned: err = %v, want EOF", err)
	}
	if _, err := tls.Dial("tcp", s.Addr(), &tls.Config{InsecureSkipVerify: true}); err == nil {
		t.Errorf("dial after Serve returned: succeeded, want an error")
	}
}

func TestCertFile(t *testing.T) {
	certPEM, keyPEM, err := GenerateCert("ecdsa-p256")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, Options{CertFile: certFile, KeyFile: keyFile})
	st := dialGet(t, s.Addr(), &tls.Config{InsecureSkipVerify: true})
	if got, want := string(st.PeerCertificates[0].Raw), string(mustDER(t, certPEM)); got != want {
		t.Errorf("served certificate differs from %s", certFile)
	}
}

func mustDER(t *testing.T, certPEM []byte) []byte {
	t.Helper()
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatal("no PEM block in generated certificate")
	}
	return block.Bytes
}

func TestListenErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"unknown kind", Options{Cert: "rsa1024"}, `unknown certificate kind "rsa1024"`},
		{"cert without key", Options{CertFile: "c.pem"}, "cert file and key file go together"},
		{"kind and file", Options{Cert: "rsa2048", CertFile: "c.pem", KeyFile: "k.pem"}, "exclusive"},
		{"missing file", Options{CertFile: "/nonexistent/c.pem", KeyFile: "/nonexistent/k.pem"}, "load certificate"},
		{"bad address", Options{Addr: "127.0.0.1:99999", Cert: "ecdsa-p256"}, "listen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Listen(tc.o)
			if err == nil {
				s.Close()
				t.Fatalf("Listen(%+v) succeeded, want error containing %q", tc.o, tc.want)
			}
			if got := err.Error(); !strings.Contains(got, tc.want) {
				t.Errorf("Listen error = %q, want it to contain %q", got, tc.want)
			}
		})
	}
}

// TestEveryScenarioCertGenerates checks that every certificate kind a
// scenario may name (plans.BuiltinCerts, the one list) is one
// GenerateCert can make, and that another kind is refused.
func TestEveryScenarioCertGenerates(t *testing.T) {
	for _, kind := range CertKinds {
		if _, _, err := GenerateCert(kind); err != nil {
			t.Errorf("GenerateCert(%q): %v", kind, err)
		}
	}
	if _, _, err := GenerateCert("dsa1024"); err == nil {
		t.Errorf("GenerateCert(dsa1024) succeeded, want an error")
	}
}
