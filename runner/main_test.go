package runner

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Environment switches that turn the test binary into a worker or a
// controller (see TestMain).
const (
	envWorker     = "KAELOAD_TEST_WORKER"
	envController = "KAELOAD_TEST_CONTROLLER"
)

// TestMain lets the test binary stand in for `kaeload worker`: with
// KAELOAD_TEST_WORKER=1 it runs Worker on stdin/stdout and exits. Other
// values make deliberately broken workers, and KAELOAD_TEST_CONTROLLER=1
// runs a long controller whose workers the test watches after killing it.
func TestMain(m *testing.M) {
	switch mode := os.Getenv(envWorker); mode {
	case "":
	case "1":
		os.Exit(runTestWorker())
	default:
		os.Exit(brokenWorker(mode))
	}
	if os.Getenv(envController) == "1" {
		os.Exit(runTestController())
	}
	os.Exit(m.Run())
}

func runTestWorker() int {
	if err := Worker(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	return 0
}

// brokenWorker misbehaves in one of several ways.
func brokenWorker(mode string) int {
	switch mode {
	case "garbage": // answers the spec with something that is not JSON
		fmt.Fprintln(os.Stderr, "about to write garbage")
		fmt.Println("hello, I am not a protocol line")
		time.Sleep(10 * time.Second)
	case "panic": // dies with a panic once it has the spec
		_, _ = wire.NewReader(os.Stdin).Next()
		panic("test worker panic")
	case "silent": // ready, then not a word after start
		lr := wire.NewReader(os.Stdin)
		_, _ = lr.Next()
		fmt.Printf(`{"type":"ready","pid":%d,"cpus":%q,"gomaxprocs":1}`+"\n", os.Getpid(), allowedSelf())
		_, _ = lr.Next()
		_, _ = lr.Next() // blocks until the controller gives up
	case "unpinned": // widens one thread's mask, then runs the real worker
		runtime.LockOSThread()
		if err := widenThread(); err != nil {
			fmt.Fprintln(os.Stderr, "widen affinity:", err)
		}
		return runTestWorker()
	default:
		fmt.Fprintf(os.Stderr, "unknown %s mode %q\n", envWorker, mode)
	}
	return 3
}

func allowedSelf() string {
	s, err := pinning.Allowed("self")
	if err != nil {
		return ""
	}
	return s.String()
}

// runTestController runs a long run against the built-in target and
// prints each worker's pid, for TestControllerKilled.
func runTestController() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	plan := builtinPlan(30*time.Second, []int{0}, []int{1})
	_, err := Run(ctx, plan, Options{
		Executable: os.Args[0],
		WorkerArgs: []string{"-test.run=^$"},
		Env:        []string{envWorker + "=1"},
		hooks: hooks{workerStart: func(group, pid int) {
			fmt.Printf("pid %d\n", pid)
		}},
		Log: os.Stderr,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "controller:", err)
		return 1
	}
	return 0
}

// closeRequest is the short-connection request used throughout.
func closeRequest(path string) []byte {
	return []byte("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nUser-Agent: kaeload-test\r\n\r\n")
}

// plan returns a one-variant, one-repetition short-connection plan with a
// group per CPU list (nil = unpinned), 4 connections each.
func plan(addr string, dur time.Duration, cpus ...[]int) *plans.Plan {
	p := &plans.Plan{
		Name: "runner-test",
		Target: plans.Target{
			URL:     "https://" + addr + "/index.html",
			Addr:    addr,
			Method:  "GET",
			Request: closeRequest("/index.html"),
			TLS: &plans.TLS{
				MinVersion: tls.VersionTLS12,
				MaxVersion: tls.VersionTLS13,
				Curves:     []uint16{uint16(tls.X25519), uint16(tls.CurveP256)},
			},
		},
		Load: plans.Load{
			Connection: plans.Close,
			Warmup:     300 * time.Millisecond,
			Duration:   dur,
			Timeout:    2 * time.Second,
			Interval:   results.DefaultInterval, // the compiled default: every test records a timeline
		},
		Repeat:    1,
		MaxErrors: 0.01, // the compiler's default (scenarios.DefaultMaxErrors)
		Variants:  []plans.Variant{{Name: "default"}},
	}
	for _, c := range cpus {
		th := len(c)
		if th == 0 {
			th = 1
		}
		p.Load.Groups = append(p.Load.Groups, plans.Group{CPUs: c, Threads: th, Connections: 4})
	}
	return p
}

// builtinPlan is plan against the built-in target (RSA-2048).
func builtinPlan(dur time.Duration, cpus ...[]int) *plans.Plan {
	p := plan("", dur, cpus...)
	p.Target.URL = ""
	p.Target.Builtin = &plans.Builtin{Cert: "rsa2048"}
	return p
}

// testOptions re-executes the test binary as the worker.
func testOptions(t *testing.T, mode string) Options {
	return Options{
		Executable: os.Args[0],
		WorkerArgs: []string{"-test.run=^$"},
		Env:        []string{envWorker + "=" + mode},
		Log:        &testLog{t: t},
	}
}

// testLog sends controller and worker log lines to t.Log.
type testLog struct{ t *testing.T }

func (l *testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// endToEndOnce skips an end-to-end test under -race. The suite runs it
// once, without the race detector, which would slow its workers (this
// test binary) several-fold and make it measure the client; what it runs
// concurrently is raced by the tests that still run under -race:
// TestRunBuiltin (two pinned workers, the built-in target in the
// controller, CPU meters, the progress display), TestInterrupt,
// TestWorkerKilled, TestBrokenWorkers and TestControllerKilled (every way
// a run ends early), TestStartFailures (server commands), and the unit
// tests of the relay, the line reader and the display. why says what the
// test measures.
func endToEndOnce(t *testing.T, why string) {
	t.Helper()
	if raceEnabled {
		t.Skipf("%s: end to end, run once without -race (see endToEndOnce)", why)
	}
}

// needCPUs skips a test on machines with fewer than n CPUs.
func needCPUs(t *testing.T, n int) {
	t.Helper()
	if !pinning.Supported {
		t.Skip("pinning needs Linux")
	}
	on, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	if len(on) < n || !on.Contains(0) || !on.Contains(n-1) {
		t.Skipf("needs CPUs 0-%d, have %s", n-1, on)
	}
}

// waitGone waits up to d for every pid to be gone and returns those left.
func waitGone(pids []int, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		var left []int
		for _, p := range pids {
			if testkit.Alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runLogged runs p with the test worker, keeping the controller's log, and
// fails the test (showing the log) when Run fails.
func runLogged(t *testing.T, p *plans.Plan) (*results.Run, *testkit.LockedBuffer) {
	t.Helper()
	log := &testkit.LockedBuffer{}
	opts := testOptions(t, "1")
	opts.Log = log
	run, err := Run(context.Background(), p, opts)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log)
	}
	return run, log
}
