package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/target"
)

// serverEnv, when set in the environment of the test binary, makes it serve
// instead of testing: "https" runs the built-in target, "http" a plain
// net/http server. It prints the address and serves until stdin closes.
const serverEnv = "KAELOAD_ENGINE_TEST_SERVER"

func TestMain(m *testing.M) {
	if kind := os.Getenv(serverEnv); kind != "" {
		if err := serve(kind); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serve is the body of the server child process.
func serve(kind string) error {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	go func() { // the parent closes our stdin (or dies): stop
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	switch kind {
	case "https":
		s, err := target.Listen(target.Options{Addr: "127.0.0.1:0", Cert: "ecdsa-p256"})
		if err != nil {
			return err
		}
		fmt.Println(s.Addr())
		return s.Serve(ctx)
	case "http":
		srv := &http.Server{Handler: http.HandlerFunc(ok), ReadHeaderTimeout: 10 * time.Second}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		fmt.Println(ln.Addr())
		go func() { <-ctx.Done(); srv.Close() }()
		if err := srv.Serve(ln); err != http.ErrServerClosed {
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown server kind %q", kind)
}

// externalServer starts a server of kind ("https": the built-in target,
// "http": plain net/http) in a child process, so that the allocations and
// CPU time a benchmark measures are the client's alone. It returns the
// server's address.
func externalServer(tb testing.TB, kind string) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"="+kind)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start server process: %v", err)
	}
	tb.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			tb.Fatal("server process printed no address")
		}
		return addr
	case <-time.After(10 * time.Second):
		tb.Fatal("server process did not print its address within 10 s")
	}
	return ""
}
