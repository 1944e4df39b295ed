package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/tls"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServe starts "kaeload serve" as a process on a free port, checks that
// it serves the certificate kind asked for without resuming sessions, and
// that Ctrl-C stops it cleanly.
func TestServe(t *testing.T) {
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--cert", "ecdsa-p256")
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`https://(127\.0\.0\.1:\d+)/ \(certificate ecdsa-p256, resumption off\)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("unexpected first line %q", line)
	}
	cache := tls.NewLRUClientSessionCache(1)
	for i := 0; i < 2; i++ {
		c, err := tls.Dial("tcp", m[1], &tls.Config{InsecureSkipVerify: true, ClientSessionCache: cache, MaxVersion: tls.VersionTLS12})
		if err != nil {
			t.Fatal(err)
		}
		st := c.ConnectionState()
		if _, ok := st.PeerCertificates[0].PublicKey.(*ecdsa.PublicKey); !ok {
			t.Errorf("served a %T key, want ECDSA", st.PeerCertificates[0].PublicKey)
		}
		if st.DidResume {
			t.Errorf("handshake %d resumed a session", i+1)
		}
		c.Close()
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve exited with %v after Ctrl-C, want status 0", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve still running 5 s after Ctrl-C")
	}
}

// TestServeAccel: --accel's errors name the key; with no --cert the
// certificate is ECDSA, and the accelerator is described.
func TestServeAccel(t *testing.T) {
	var out strings.Builder
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--accel", "capacity=600/s,latency=2"}, stdio{out: &out, err: &out})
	if err == nil || !strings.Contains(err.Error(), `--accel: accel: latency="2": want a duration`) {
		t.Errorf("bad latency: got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // serve returns at once
	t.Setenv("KAE_GO_SOFT_RATIO", "33")
	if err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--accel", "capacity=900/s,mode=sync"}, stdio{out: &out, err: &out}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"certificate ecdsa-p256", "accelerator: capacity=900/s,latency=2ms,soft-cpu=1.248128ms,offload-cpu=50µs,engines=1,queue=1024,threshold=3,mode=sync,policy=ratio, KAE_GO_SOFT_RATIO=33", "/.kaeload/accel"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
