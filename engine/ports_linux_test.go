package engine

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/ports"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/target"
)

// netnsEnv marks the test binary re-executed inside a fresh network
// namespace by TestPortsExhausted.
const netnsEnv = "KAELOAD_ENGINE_TEST_NETNS"

// TestPortsExhausted runs out of client ports for real: inside a network
// namespace of its own (unshare -n), with ip_local_port_range narrowed to
// 32 ports and tcp_tw_reuse off, short connections to a server that lets
// the client close first — it answers, then waits for the client's FIN
// before it closes, and sends no TLS close_notify that would turn the
// client's close into a reset — leave every port in TIME_WAIT on the
// client, and connects soon find no free port. Those connects must count as the ports class
// ("client ports exhausted"), never as plain connect errors, and the
// client's TIME_WAIT sockets must show in /proc/net/sockstat.
func TestPortsExhausted(t *testing.T) {
	if os.Getenv(netnsEnv) == "" {
		cmd := exec.Command("unshare", "-n", "--", os.Args[0], "-test.run=^TestPortsExhausted$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), netnsEnv+"=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			t.Logf("inside the namespace:\n%s", out.String())
		case errors.As(err, &ee) && strings.Contains(out.String(), "unshare failed"),
			errors.Is(err, exec.ErrNotFound):
			t.Skipf("network namespaces are not available here (unshare -n): %v\n%s", err, out.String())
		default:
			t.Fatalf("inside the namespace: %v\n%s", err, out.String())
		}
		return
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		t.Fatalf("ip link set lo up: %v: %s", err, out)
	}
	for file, value := range map[string]string{
		"/proc/sys/net/ipv4/ip_local_port_range": "40000 40031",
		"/proc/sys/net/ipv4/tcp_tw_reuse":        "0",
	} {
		if err := os.WriteFile(file, []byte(value), 0o644); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	l, err := ports.Read()
	if err != nil || l.Ports() != 32 {
		t.Fatalf("port range in the namespace: %+v, %v", l, err)
	}
	addr := clientClosesFirst(t)
	e := newEngine(t, httpsTarget(addr, closeRequest), load(plans.Close, time.Second), 4)
	// The 32 ports go in the first few dozen handshakes; TIME_WAIT keeps
	// them 60 s, so a longer window only adds ports errors.
	g := run(t, e, window(0, 500*time.Millisecond))
	tw, twErr := ports.TimeWait()
	t.Logf("requests %d, errors %+v, TIME_WAIT %d (%v)", g.Requests, g.Errors, tw, twErr)
	if got := g.Errors[results.ErrPorts]; got.Count == 0 || !strings.Contains(got.First, "cannot assign requested address") {
		t.Errorf("ports errors = %+v, want some, first \"cannot assign requested address\"", got)
	}
	if got := g.Errors[results.ErrConnect].Count; got != 0 {
		t.Errorf("connect errors = %d (%s), want 0: running out of ports is the ports class", got, g.Errors[results.ErrConnect].First)
	}
	if g.Requests == 0 || g.Requests > 32 {
		t.Errorf("requests = %d, want some and at most 32 (the ports of the range)", g.Requests)
	}
	if twErr != nil || tw < 16 {
		t.Errorf("TIME_WAIT sockets = %d (%v), want the client's used ports there", tw, twErr)
	}
}

// clientClosesFirst serves HTTPS on loopback the way some servers do:
// after the response it waits for the client to close and only then closes
// its side, without a close_notify, so the client is the one left holding
// TIME_WAIT.
func clientClosesFirst(t *testing.T) string {
	t.Helper()
	cert, err := target.LoadCert("ecdsa-p256")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, SessionTicketsDisabled: true}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	const response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
	go func() {
		for {
			raw, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer raw.Close()
				_ = raw.SetDeadline(time.Now().Add(10 * time.Second))
				tc := tls.Server(raw, cfg)
				br := bufio.NewReader(tc)
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" {
						break
					}
				}
				if _, err := io.WriteString(tc, response); err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, raw) // until the client's FIN
			}()
		}
	}()
	return ln.Addr().String()
}
