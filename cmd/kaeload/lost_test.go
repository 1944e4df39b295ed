package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results/format"
)

// TestWorkerLostKeepsWindow kills group 1's worker (SIGKILL) 1 s into
// the first of two windows: the run directory stays, `report` shows the
// window FAILED with group 0's counts and the run INCOMPLETE, nginx's log
// holds group 0's requests plus what group 1 had reported, give or take
// group 1's in-flight connections and the requests it finished after its
// last report (its open-loop rate keeps those few), and --resume
// measures both windows.
func TestWorkerLostKeepsWindow(t *testing.T) {
	alongside(t)
	ng := nginxtest.Start(t, nginxtest.Config{})
	const lostConns, lostRate = 2, 8.0
	scenario := writeScenario(t, fmt.Sprintf(`name: worker-lost
target: {url: "https://%s/"}
load:
  connection: close
  warmup: 0s
  duration: 3s
  groups: [{connections: 2, rate: 200}, {connections: %d, rate: %g}]
repeat: 2
`, ng.Addr, lostConns, lostRate))
	dir := filepath.Join(t.TempDir(), "run")
	in := windowOf("variant default rep 1/2")
	pid, killed := 0, false
	// Killed once the bars show its group counting in the first window:
	// a state, not a delay, so the window is in progress however fast
	// the machine.
	counting := regexp.MustCompile(`group 1 \[[^]]*\].*\s[1-9][0-9,]* req\s`)
	_, errOut, code := kaeloadWatch(t, func(line string, _ *exec.Cmd) {
		if m := readyRE.FindStringSubmatch(line); m != nil && m[1] == "1" && !killed {
			pid, _ = strconv.Atoi(m[2])
		}
		if inWin := in(line); !killed && pid != 0 && inWin && counting.MatchString(line) && !strings.Contains(line, "done") {
			killed = true
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}, "run", scenario, "--progress", "on", "--out", dir)
	t.Logf("stderr:\n%s", errOut)
	if !killed || code != 1 {
		t.Fatalf("killed %v, exit status %d; want a worker killed in the window and 1", killed, code)
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatalf("the run directory was not kept: %v", err)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 0 || len(r.Variants[0].Partial) != 1 || !r.Interrupted {
		t.Fatalf("stored run: %d variants, interrupted %v; want one variant with only a FAILED window, interrupted", len(r.Variants), r.Interrupted)
	}
	p := r.Variants[0].Partial[0]
	if l := p.Lost; l == nil || l.Group != 1 || l.Why != "killed by signal 9" || len(p.Groups) != 1 || p.Groups[0].Index != 0 {
		t.Fatalf("FAILED window: lost %+v, %d groups; want group 1 killed by signal 9, group 0 kept", p.Lost, len(p.Groups))
	}
	report, _, rc := kaeload(t, "report", dir)
	for _, want := range []string{"INTERRUPTED:", fmt.Sprintf("PARTIAL: variant default rep 1: FAILED, the run is INCOMPLETE: group 1 was lost (killed by signal 9) after %s s of its 3s window: %s requests (the other groups'; group 1 had reported %s)",
		format.Float(p.Total.Window.Length().Seconds(), 2), format.Count(p.Total.Requests), format.Count(p.Lost.Requests))} {
		if !strings.Contains(report, want) {
			t.Errorf("report (exit %d) lacks %q:\n%s", rc, want, report)
		}
	}
	c := p.Total.Counts
	responses := c.Requests + c.Outside.Warmup + c.Outside.Late
	low := responses + p.Lost.Requests
	high := low + c.Outside.Abandoned + c.Errors.Total() + lostConns + uint64(lostRate*2*0.25+1) // 2 snapshot periods
	if served := uint64(len(ng.Log(t))); served < low || served > high {
		t.Errorf("nginx served %d requests; group 0 read %d and group 1 had reported %d: want %d to %d", served, responses, p.Lost.Requests, low, high)
	}
	if _, errOut, code := kaeload(t, "run", "--resume", dir, "--progress", "off"); code != 0 {
		t.Fatalf("--resume: exit status %d:\n%s", code, errOut)
	}
	r, err = readRun(dir)
	if err != nil || len(r.Variants) != 1 || len(r.Variants[0].Reps) != 2 || len(r.Variants[0].Partial) != 0 || r.Interrupted {
		t.Errorf("resumed run (err %v): want 2 repetitions, no FAILED window, not interrupted", err)
	}
}
