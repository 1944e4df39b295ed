package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/tls"
	"os"
	"os/exec"
	"regexp"
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
