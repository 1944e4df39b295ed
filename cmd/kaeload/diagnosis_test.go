package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// TestAcceptQueueDiagnosis runs "kaeload run URL" against one nginx
// (one worker, CPU 0) with two listeners, a backlog of 4096 and one of 8,
// 512 connections from CPU 1 for a 2 s window each, with the gate
// "listen_overflows == 0", in a network namespace of its own (nothing
// else moves its counters). With backlog 8 the accept queue overflows,
// whatever the machine's load: the text report names the accept-queue
// overflow with the server's ListenOverflows over the window, the very
// count run.json's timeline holds (runner's TestAcceptQueueOverflow ties
// those to /proc), the JSON summary gives the repetition that diagnosis,
// its timeline and its tcp counters, and the gate is crossed (exit 99).
// With 4096, more than the 512 connections there ever are, nothing is
// named and the gate passes (exit 0). The large backlog runs first, so
// nothing the small one leaves in the kernel can count in it.
func TestAcceptQueueDiagnosis(t *testing.T) {
	if raceEnabled {
		t.Skip("the diagnosis is analysis, unit-tested in results/diagnosis; here the real kernel's counters, not the race detector")
	}
	if online, _ := pinning.Online(); !online.Contains(0) || !online.Contains(1) {
		t.Skip("needs CPUs 0 and 1: nginx on one, the client on the other")
	}
	nginxtest.Binary(t)
	if !testkit.InPrivateNetns(t) {
		return
	}
	ng := nginxtest.Start(t, nginxtest.Config{CPUs: "0", Backlog: 4096, MoreBacklogs: []int{8}})
	for _, tc := range []struct {
		addr     string
		backlog  int
		overflow bool
	}{{ng.Addr, 4096, false}, {ng.MoreAddrs[0], 8, true}} {
		dir := filepath.Join(t.TempDir(), "run")
		out, text, code := kaeload(t, "run", "https://"+tc.addr+"/index.html", "-c", "512", "-d", "2s", "--warmup", "300ms",
			"--cpus", "1", "--insecure", "--progress", "off", "-o", dir, "--format", "json",
			"--set", "load.timeout=5s", "--set", "max_errors=100%", "--threshold", "listen_overflows == 0")
		f, err := os.Open(filepath.Join(dir, "run.json"))
		if err != nil {
			t.Fatalf("backlog %d: exit %d, no run.json: %v\n%s", tc.backlog, code, err, text)
		}
		r, err := results.ReadRun(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		// The server's ListenOverflows over the window, as the record has it.
		tl := r.Variants[0].Reps[0].Timeline
		if tl == nil || len(tl.Hosts) != 1 || !tl.Hosts[0].Server {
			t.Fatalf("backlog %d: timeline hosts %+v, want one, the server's (shared with the clients)", tc.backlog, tl)
		}
		var window uint64
		for i, p := range tl.Points {
			n, ok := tl.TCP(i, 0, "ListenOverflows")
			if !ok {
				t.Fatalf("backlog %d: ListenOverflows not available at %s", tc.backlog, p.Start)
			}
			if p.Start >= 0 {
				window += n
			}
		}
		t.Logf("backlog %d: exit %d, ListenOverflows over the window %d; text report:\n%s", tc.backlog, code, window, text)
		host := tl.Hosts[0].Name
		if !regexp.MustCompile(`(?m)^tcp ` + regexp.QuoteMeta(host) + ` +clients and server .*PassiveOpens \+[1-9]`).MatchString(text) {
			t.Errorf("backlog %d: no tcp line with the server's counters in the text report", tc.backlog)
		}
		var sum struct {
			Variants []struct {
				Repetitions []struct {
					Timeline []struct {
						StartS   *float64 `json:"start_s"`
						Requests *uint64  `json:"requests"`
						Errors   *uint64  `json:"errors"`
					} `json:"timeline"`
					TCP map[string]struct {
						Deltas map[string]uint64 `json:"deltas"`
					} `json:"tcp"`
					Diagnoses []struct {
						Rule   string `json:"rule"`
						Figure string `json:"figure"`
					} `json:"diagnoses"`
				} `json:"repetitions"`
			} `json:"variants"`
			Passed bool `json:"thresholds_passed"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Variants) != 1 || len(sum.Variants[0].Repetitions) != 1 {
			t.Fatalf("backlog %d: stdout is not the summary of one repetition (%v):\n%s", tc.backlog, err, out)
		}
		rep := sum.Variants[0].Repetitions[0]
		if len(rep.Timeline) != len(tl.Points) || rep.Timeline[0].StartS == nil || rep.Timeline[0].Requests == nil || rep.Timeline[0].Errors == nil {
			t.Errorf("backlog %d: JSON timeline %+v, want %d points with start_s, requests, errors", tc.backlog, rep.Timeline, len(tl.Points))
		}
		if got := rep.TCP[host].Deltas["ListenOverflows"]; got != window {
			t.Errorf("backlog %d: JSON tcp %s ListenOverflows %d, the record's %d", tc.backlog, host, got, window)
		}
		named := strings.Contains(text, "DIAGNOSIS accept-queue overflow")
		if !tc.overflow {
			if window != 0 || named || len(rep.Diagnoses) != 0 || code != 0 || !sum.Passed {
				t.Errorf("backlog %d: %d overflows, named %v, diagnoses %+v, exit %d (passed %v): want none named, exit 0", tc.backlog, window, named, rep.Diagnoses, code, sum.Passed)
			}
			continue
		}
		if window == 0 {
			t.Fatalf("backlog %d: no listen overflow in the window with 512 connections", tc.backlog)
		}
		words := "ListenOverflows +" + format.Count(window)
		if !named || !regexp.MustCompile(`(?m)^  figure +`+regexp.QuoteMeta(words)+`[, ]`).MatchString(text) {
			t.Errorf("backlog %d: the text report does not name the accept-queue overflow with %q", tc.backlog, words)
		}
		if !strings.Contains(text, "DIAGNOSIS: default, repetition 1: accept-queue overflow: ") {
			t.Errorf("backlog %d: the banner does not name the overflow", tc.backlog)
		}
		if len(rep.Diagnoses) == 0 || rep.Diagnoses[0].Rule != "accept_queue_overflow" || !strings.Contains(rep.Diagnoses[0].Figure, words) {
			t.Errorf("backlog %d: JSON diagnoses %+v, want the accept-queue overflow with %q", tc.backlog, rep.Diagnoses, words)
		}
		// The gate counts the target's own listener's drops (bounded by
		// the namespace's count), which another listener does not move;
		// the namespace's counter is read at slightly other instants.
		own := window
		if l := tl.Listener; l != nil && len(l.Drops) == len(tl.Points) {
			var drops uint64
			for i, p := range tl.Points {
				if p.Start >= 0 && l.Drops[i] != nil {
					drops += *l.Drops[i]
				}
			}
			own = min(drops, window)
		}
		if code != 99 || sum.Passed || !strings.Contains(text, "THRESHOLD CROSSED: listen_overflows == 0: default "+format.Count(own)) {
			t.Errorf("backlog %d: exit %d, passed %v: want the gate crossed with %d, the listener's drops (exit 99)", tc.backlog, code, sum.Passed, own)
		}
	}
}
