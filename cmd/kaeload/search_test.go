package main

import (
	"bufio"
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/target"
)

// envSearchTarget makes this test binary the search tests' target (see
// TestMain): its value is the control file.
const envSearchTarget = "KAELOAD_TEST_SEARCH_TARGET"

// searchBase is the handshake work every value pays: with it the target,
// not the client, is the bottleneck, at a few hundred handshakes per
// second, which leaves few sockets in TIME_WAIT (a machine short of
// ephemeral ports spends its CPU in connect, and a window can then
// complete nothing).
const searchBase = 20000

// The one target the search tests share, started on first use and
// stopped by TestMain: this test binary serving HTTPS (ECDSA P-256, no
// resumption) on CPU 0, whose every handshake costs searchBase SHA-256
// hashes plus slope per unit of distance of the ratio from opt beyond
// flat units either side of it. A variant's server start command writes
// "ratio opt flat slope" into the control file, so a search window
// measures its value's cost with no restart of the target: a window
// costs its warm-up and measurement, not a process start.
var shared struct {
	once sync.Once
	err  error
	port int
	dir  string // holds the control file
	cmd  *exec.Cmd
}

// searchTarget returns the shared target's port and the control file.
func searchTarget(t *testing.T) (port int, ctl string) {
	t.Helper()
	shared.once.Do(startSearchTarget)
	if shared.err != nil {
		t.Fatalf("start the search target: %v", shared.err)
	}
	return shared.port, filepath.Join(shared.dir, "ctl")
}

func startSearchTarget() {
	if shared.dir, shared.err = os.MkdirTemp("", "kaeload-search-"); shared.err != nil {
		return
	}
	ctl := filepath.Join(shared.dir, "ctl")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envSearchTarget+"="+ctl)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		shared.err = err
		return
	}
	if shared.err = pinning.Start(cmd, pinning.Set{0}); shared.err != nil {
		return
	}
	shared.cmd = cmd
	if _, err := fmt.Fscan(bufio.NewReader(out), &shared.port); err != nil {
		shared.err = fmt.Errorf("read its port: %v", err)
	}
}

// stopSearchTarget ends the shared target, if it was started.
func stopSearchTarget() {
	if shared.cmd != nil {
		_ = shared.cmd.Process.Signal(syscall.SIGTERM)
		_ = shared.cmd.Wait()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

// serveSearchTarget is the shared target's process: it prints its port
// and serves until killed.
func serveSearchTarget(ctl string) int {
	cert, err := target.LoadCert("ecdsa-p256")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg := &tls.Config{
		Certificates:           []tls.Certificate{cert},
		SessionTicketsDisabled: true,
		NextProtos:             []string{"http/1.1"},
		VerifyConnection: func(tls.ConnectionState) error {
			burn(handshakeWork(ctl))
			return nil
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	srv := &http.Server{
		Handler:      http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "kaeload\n") }),
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ErrorLog:     log.New(io.Discard, "", 0),
	}
	_ = srv.Serve(tls.NewListener(ln, cfg))
	return 0
}

// handshakeWork is the cost of a handshake for the control file's
// "ratio opt flat slope" (searchBase while there is none).
func handshakeWork(ctl string) int {
	b, _ := os.ReadFile(ctl)
	var r, opt, flat, slope int
	if n, _ := fmt.Sscan(string(b), &r, &opt, &flat, &slope); n != 4 {
		return searchBase
	}
	d := r - opt
	if d < 0 {
		d = -d
	}
	if d -= flat; d < 0 {
		d = 0
	}
	return searchBase + d*slope
}

// burn hashes a 64-byte block n times, each hash over the previous one
// (what kaeload serve --handshake-work does).
func burn(n int) {
	var sum [sha256.Size]byte
	var block [64]byte
	for range n {
		copy(block[:], sum[:])
		sum = sha256.Sum256(block[:])
	}
	burnSink.Add(uint64(sum[0]))
}

// burnSink keeps burn's result alive, so the hashing is not optimized away.
var burnSink atomic.Uint64

// searchScenario is a scenario that searches KAE_GO_SOFT_RATIO on the
// shared target, its cost cheapest at opt (see searchTarget), with the
// client pinned to CPU 1 and windows of the given length. Two connections
// keep the target busy; more would only add requests in flight at the
// window's edges, the noise of a window's requests per server CPU-second.
func searchScenario(t *testing.T, opt, flat, slope int, grid string, budget int, window string) string {
	t.Helper()
	port, ctl := searchTarget(t)
	start := fmt.Sprintf(`echo "$KAE_GO_SOFT_RATIO %d %d %d" > %[4]s.new && mv %[4]s.new %[4]s`, opt, flat, slope, ctl)
	return writeScenario(t, fmt.Sprintf(`name: soft-search
target:
  url: https://127.0.0.1:%d/
load:
  duration: %s
  warmup: 200ms
  groups:
    - cpus: "1"
      connections: 2
server:
  start: %q
variants:
  - name: soft-{ratio}
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    search:
      ratio: %s
      maximize: req/s per server CPU-second
      budget: %d
`, port, window, start, grid, budget))
}

func needTwoCPUs(t *testing.T) {
	t.Helper()
	if online, err := pinning.Online(); err != nil || !online.Contains(0) || !online.Contains(1) {
		t.Skipf("the target and the client need CPUs 0 and 1; this machine has %v", online)
	}
}

// TestSearchFlatTop: handshakes cost the same for ratios 40 to 60 and 2000
// hashes (a tenth of the base cost) more per unit beyond; on the grid 20,
// 30, … 80 with a budget of 12 windows the plateau is the whole top, 40, 50
// and 60, with 40 its lowest value. (Grid 0 … 100 with 16 windows tested
// the same; package search's simulations cover other grids and budgets.)
// The search maximizes requests per server CPU-second: CPU time, unlike
// wall-clock throughput, does not depend on what else this machine runs.
//
// Every run is interrupted (Ctrl-C) after four windows and continued with
// run --resume DIR: the four windows are kept, not measured again, the
// search goes on from them to its budget (windows 5 to 12 only), the run
// ends complete, the best value has a 95 % CI, and the report says what
// the full grid would need. (This was also TestSearchResume, a second
// search of its own: a sharp optimum at 37 on 0 … 100 step 1, found
// within ±3 by 12 windows. That precision is the search's, checked on
// simulated windows by package search's TestUnimodal and
// TestUnimodalNoisier; what only a real run shows, that measured scores
// order the values by their cost, is checked here: the best value and the
// plateau lie on the top.)
//
// The coarse pass measures 20, 40, 50, 70 and 80: two values of the top,
// and 60 only when the search extends the plateau past 50 (package
// search's TestFlatTopOffCoarse simulates this grid; before the search
// extended plateaus, 60 was left unmeasured whenever noise put 40 above
// 50, in about a third of runs).
//
// Whatever the machine, the best value lies on the top (30 and 70 cost
// twice as much) and the report names the plateau's lowest value. That the plateau is the whole top is a statistical claim:
// a value of the top is left off by chance at most about 5 % of the time
// with steady noise, more often when the machine's load moves a
// handshake's CPU time during the run (the more so in a virtual machine),
// and with two windows a value, one stray window can widen a value's CI
// enough to let a costlier value onto the plateau. So, like TestNginxAA,
// a miss or a costlier value gets a second run, and the test fails only
// when that misses too; when the second run's windows of equal cost
// differ by more than flatNoise, the machine is too unsteady for the
// claim, and the test skips, saying how far they differed.
func TestSearchFlatTop(t *testing.T) {
	needTwoCPUs(t)
	// 1 s windows: equal costs must measure alike (with 500 ms the
	// plateau's edges moved on a loaded machine).
	path := searchScenario(t, 50, 10, 2000, "{from: 20, to: 80, step: 10}", 12, "1s")
	top := map[string]bool{"40": true, "50": true, "60": true}
	for attempt := 1; ; attempt++ {
		dir := filepath.Join(t.TempDir(), "run")
		out := interruptedSearch(t, path, dir)
		r, err := readRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		ss := analysis.SummarizeSearch(r)
		if ss == nil || ss.Best < 0 || ss.PlateauLow < 0 {
			t.Fatalf("no search answer or plateau in run.json\n%s", out)
		}
		var plateau []string
		for _, i := range ss.Plateau {
			plateau = append(plateau, ss.Points[i].Value)
		}
		var flat []float64 // ln of every window's score on the top
		for _, p := range ss.Points {
			if top[p.Value] {
				for _, x := range p.Scores {
					flat = append(flat, math.Log(x))
				}
			}
		}
		spread := stddev(flat)
		best := ss.Points[ss.Best]
		t.Logf("attempt %d: best %s, %.0f req/s per server CPU-second (CI %.0f … %.0f); plateau %v; visits %+v; windows on the top differ by %.1f %% (sd)",
			attempt, best.Value, best.Stats.Mean, best.Stats.CI95Low, best.Stats.CI95High, plateau, ss.Search.Visits, 100*spread)
		if !top[best.Value] {
			t.Errorf("best ratio %s, want one of 40, 50, 60\n%s", best.Value, out)
		}
		if !best.Stats.HasCI {
			t.Errorf("the best value has no 95 %% CI (%d windows)", best.Stats.N)
		}
		if got := ss.Windows; got > 12 {
			t.Errorf("%d windows, want at most 12", got)
		}
		if want := "the full grid would need 7"; !strings.Contains(out, want) {
			t.Errorf("report does not say %q:\n%s", want, out)
		}
		var extra []string // plateau values off the top, which cost twice as much
		for _, v := range plateau {
			if !top[v] {
				extra = append(extra, v)
			}
		}
		switch {
		case len(extra) == 0:
		case spread > flatNoise:
			// Windows of equal cost that differ this much leave a value
			// of twice the cost, measured twice, within the noise.
			testkit.SkipBusy(t, "plateau %v holds %v, which cost twice as much as the top, but the windows on the top differed by %.1f %% (sd of ln score), over %.0f %%: the machine's load moved a handshake's CPU time", plateau, extra, 100*spread, 100*flatNoise)
		case attempt == 1:
			// Two windows a value leave its CI wide when one of them
			// strays (CI saw 40's two at 49.8 … 1,221.5 with the top's
			// windows at 9.4 % in all): as with a miss, a second run.
			t.Logf("attempt 1: plateau %v holds %v, which cost twice as much as the top: a second run", plateau, extra)
			continue
		default:
			t.Errorf("plateau %v holds %v, which cost twice as much as the top, in the second run too\n%s", plateau, extra, out)
		}
		if want := "lowest ratio = " + ss.Points[ss.PlateauLow].Value; !strings.Contains(out, want) {
			t.Errorf("report does not say %q:\n%s", want, out)
		}
		got := strings.Join(plateau, " ")
		switch {
		case got == "40 50 60" || t.Failed():
			return
		case attempt == 1:
			continue
		case spread > flatNoise:
			testkit.SkipBusy(t, "plateau %q twice; the second run's windows of equal cost differed by %.1f %% (sd of ln score), over the %.0f %% at which the whole top is required: the machine's load moved a handshake's CPU time", got, 100*spread, 100*flatNoise)
		default:
			t.Errorf("plateau %q in two runs, want \"40 50 60\"\n%s", got, out)
			return
		}
	}
}

// interruptedSearch runs the search scenario at path into dir, interrupts
// it (Ctrl-C) once window 5 of 12 begins and resumes it with run --resume
// DIR. It checks what the resume promises: four windows kept as they were
// measured, windows 5 to 12 measured by the resumed run alone, a complete
// run of 12 windows. It returns the resumed run's report.
func interruptedSearch(t *testing.T, path, dir string) string {
	t.Helper()
	sent := false
	_, errOut, code := kaeloadWatch(t, func(line string, cmd *exec.Cmd) {
		if !sent && strings.Contains(line, "search window 5/12") {
			sent = true
			_ = cmd.Process.Signal(os.Interrupt)
		}
	}, "run", path, "--out", dir, "--progress", "off")
	if code != 130 {
		t.Fatalf("interrupted run: exit %d, want 130\n%s", code, errOut)
	}
	first, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	before := first.Search.Visits
	if len(before) != 4 {
		t.Fatalf("the interrupted run kept %d windows, want 4: %+v", len(before), before)
	}
	out, errOut, code := kaeload(t, "run", "--resume", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, out, errOut)
	}
	if want := "4 windows measured before are kept"; !strings.Contains(errOut, want) {
		t.Errorf("resumed run does not say %q:\n%s", want, errOut)
	}
	if strings.Contains(errOut, "search window 4/12") || !strings.Contains(errOut, "search window 5/12") {
		t.Errorf("the resumed run should measure windows 5 to 12 only:\n%s", errOut)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Incomplete || r.Interrupted {
		t.Errorf("resumed run: incomplete %v interrupted %v, want a completed run", r.Incomplete, r.Interrupted)
	}
	after := r.Search.Visits
	if len(after) != 12 {
		t.Fatalf("%d windows after the resume, want 12: %+v", len(after), after)
	}
	for i, v := range before {
		if after[i] != v {
			t.Errorf("visit %d is %+v after the resume, %+v before", i+1, after[i], v)
		}
	}
	return out
}

// flatNoise is the spread of equal-cost windows' scores (sd of their
// logs) up to which TestSearchFlatTop requires the whole top as the
// plateau; runs on a loaded 2-CPU virtual machine measured 5 to 13 %.
const flatNoise = 0.15

// stddev is the sample standard deviation of xs (0 for fewer than two).
func stddev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return math.Sqrt(sq / float64(len(xs)-1))
}
