package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// searchTarget writes a wrapper script that starts the built-in target
// (this test binary as kaeload serve) pinned to CPU 0, with a
// per-handshake CPU cost derived from KAE_GO_SOFT_RATIO: searchBase
// SHA-256 hashes, plus slope per unit of distance from opt beyond flat
// units either side of it. It returns the script and the port the target
// listens on.
func searchTarget(t *testing.T, opt, flat, slope int) (script string, port int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	script = filepath.Join(t.TempDir(), "target.sh")
	text := fmt.Sprintf(`#!/bin/sh
# The built-in target, its handshakes cheapest for KAE_GO_SOFT_RATIO near %d.
r=${KAE_GO_SOFT_RATIO:?}
d=$((r - %d)); [ $d -lt 0 ] && d=$((-d))
d=$((d - %d)); [ $d -lt 0 ] && d=0
KAELOAD_TEST_MAIN=1 exec taskset -c 0 %q serve --addr 127.0.0.1:%d --cert ecdsa-p256 --handshake-work $((%d + d * %d))
`, opt, opt, flat, exe, port, searchBase, slope)
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, port
}

// searchBase is the handshake work every value pays: with it the target,
// not the client, is the bottleneck, at a few hundred handshakes per
// second, which leaves few sockets in TIME_WAIT (a machine short of
// ephemeral ports spends its CPU in connect, and a window can then
// complete nothing).
const searchBase = 20000

// searchScenario is a scenario that searches KAE_GO_SOFT_RATIO on the
// target of script, with the client pinned to CPU 1 and windows of 1 s.
func searchScenario(t *testing.T, script string, port int, grid string, budget int) string {
	t.Helper()
	return writeScenario(t, fmt.Sprintf(`name: soft-search
target:
  url: https://127.0.0.1:%d/
load:
  duration: 1s
  warmup: 300ms
  groups:
    - cpus: "1"
      connections: 8
server:
  start: sh %s
variants:
  - name: soft-{ratio}
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    search:
      ratio: %s
      maximize: req/s per server CPU-second
      budget: %d
`, port, script, grid, budget))
}

func needTwoCPUs(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/taskset"); err != nil {
		t.Skip("taskset is needed to pin the target to CPU 0")
	}
	if n := cpuCount(); n < 2 {
		t.Skipf("the target and the client need a CPU each; this machine has %d", n)
	}
}

func cpuCount() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 0
	}
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(string(b)), ",") {
		var lo, hi int
		if k, _ := fmt.Sscanf(part, "%d-%d", &lo, &hi); k == 2 {
			n += hi - lo + 1
		} else {
			n++
		}
	}
	return n
}

// TestSearchFindsOptimum: a server whose handshakes are cheapest at
// KAE_GO_SOFT_RATIO=37 (each unit of distance costs 2000 SHA-256 hashes
// more, a tenth of the base cost); searching 0..100 step 1 with a budget of 12 windows finds a value
// within ±3 of 37, where the full grid would need 101 windows. The search
// maximizes requests per server CPU-second: CPU time, unlike wall-clock
// throughput, does not depend on what else this machine runs.
func TestSearchFindsOptimum(t *testing.T) {
	needTwoCPUs(t)
	script, port := searchTarget(t, 37, 0, 2000)
	path := searchScenario(t, script, port, "{from: 0, to: 100, step: 1}", 12)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", path, "--out", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	r, err := results.ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	ss := results.SummarizeSearch(r)
	if ss == nil || ss.Best < 0 {
		t.Fatalf("no search answer in run.json\n%s", out)
	}
	best := ss.Points[ss.Best]
	t.Logf("best ratio %s, %.0f req/s per server CPU-second (CI %.0f … %.0f); visits %s", best.Value, best.Stats.Mean, best.Stats.CI95Low, best.Stats.CI95High, ss.VisitOrder())
	var v int
	fmt.Sscan(best.Value, &v)
	if v < 34 || v > 40 {
		t.Errorf("best ratio %d, want 37 ± 3\n%s", v, out)
	}
	if got := ss.Windows; got > 12 {
		t.Errorf("%d windows, want at most 12", got)
	}
	if want := "the full grid would need 101"; !strings.Contains(out, want) {
		t.Errorf("report does not say %q:\n%s", want, out)
	}
	if !best.Stats.HasCI {
		t.Errorf("the best value has no 95 %% CI (%d windows)", best.Stats.N)
	}
}

// TestSearchFlatTop: handshakes cost the same for ratios 40 to 60 and 2000
// hashes (a tenth of the base cost) more per unit beyond; on the grid 0, 10, … 100 the plateau is the
// whole top, 40, 50 and 60, with 40 its lowest value.
func TestSearchFlatTop(t *testing.T) {
	needTwoCPUs(t)
	script, port := searchTarget(t, 50, 10, 2000)
	path := searchScenario(t, script, port, "{from: 0, to: 100, step: 10}", 16)
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", path, "--out", dir, "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	r, err := results.ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	ss := results.SummarizeSearch(r)
	var plateau []string
	for _, i := range ss.Plateau {
		plateau = append(plateau, ss.Points[i].Value)
	}
	t.Logf("plateau %v; visits %s", plateau, ss.VisitOrder())
	if got, want := strings.Join(plateau, " "), "40 50 60"; got != want {
		t.Errorf("plateau %q, want %q\n%s", got, want, out)
	}
	if !strings.Contains(out, "lowest ratio = 40") {
		t.Errorf("report does not name 40 as the plateau's lowest value:\n%s", out)
	}
}

// TestSearchResume: a search interrupted (Ctrl-C) after four windows is
// continued with run --resume DIR: the four windows are kept, not
// measured again, the search goes on from them to its budget, and the
// answer is still 37 ± 3.
func TestSearchResume(t *testing.T) {
	needTwoCPUs(t)
	script, port := searchTarget(t, 37, 0, 2000)
	path := searchScenario(t, script, port, "{from: 0, to: 100, step: 1}", 12)
	dir := filepath.Join(t.TempDir(), "run")
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
	first, err := results.ReadRunFile(dir)
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
	r, err := results.ReadRunFile(dir)
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
	ss := results.SummarizeSearch(r)
	best := ss.Points[ss.Best]
	t.Logf("best ratio %s; visits %s", best.Value, ss.VisitOrder())
	var v int
	fmt.Sscan(best.Value, &v)
	if v < 34 || v > 40 {
		t.Errorf("best ratio %d, want 37 ± 3\n%s", v, out)
	}
}
