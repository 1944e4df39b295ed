package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/sshdtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/remote"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner"
)

// TestHostsStartAtOneInstant runs a local group and one group on each of
// eight ssh hosts (sshds in a network namespace; KAELOAD_HOSTS=16 for
// issue 39's sixteen): every repetition's groups start and end within 1 %
// of the window of each other, the total rate is the sum of the groups'
// own, and nginx's log holds what they counted.
func TestHostsStartAtOneInstant(t *testing.T) {
	hosts := 8
	if n, err := strconv.Atoi(os.Getenv("KAELOAD_HOSTS")); err == nil && n > 0 {
		hosts = n
	}
	ns := sshdtest.NewNetns(t)
	s0, ng, yaml := remoteSetup(t, "1s", ns)
	hash, err := remote.FileHash(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(filepath.Join(s0.Dir, "authorized_keys"))
	if err != nil {
		t.Fatal(err)
	}
	var groups strings.Builder
	servers := make([]*sshdtest.Server, hosts)
	servers[0] = s0
	for i, s := range servers {
		if s == nil {
			// Reached with s0's key and known_hosts (ssh_options).
			s = sshdtest.Start(t, sshdtest.Config{Netns: ns})
			appendFile(t, filepath.Join(s.Dir, "authorized_keys"), key)
			known, _ := os.ReadFile(filepath.Join(s.Dir, "known_hosts"))
			appendFile(t, filepath.Join(s0.Dir, "known_hosts"), append([]byte("\n"), known...))
			fmt.Fprintf(&groups, "    - {connections: 2, host: %q}\n", s.URL)
		}
		// The binary already there: the uploads would cost more than the test.
		dir := filepath.Join(s.Home, ".cache/kaeload", hash)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(os.Args[0], filepath.Join(dir, "kaeload")); err != nil && i > 0 {
			t.Fatal(err)
		}
	}
	yaml = strings.Replace(yaml, "server:\n", groups.String()+"server:\n", 1)
	log := &testkit.LockedBuffer{}
	r, err := runner.Run(context.Background(), compileYAML(t, yaml), workerOptions(log))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) == 0 {
		t.Fatalf("run measured %d variants (not measured: %v)\n%s", len(r.Variants), r.NotMeasured, log.String())
	}
	var counts results.Counts
	for _, rep := range r.Variants[0].Reps {
		win := rep.Total.Window.Length()
		s := rep.WindowSpread
		if len(rep.Groups) != hosts+1 || s == nil {
			t.Fatalf("rep %d: %d groups, spread %v; want %d and recorded", rep.Index, len(rep.Groups), s, hosts+1)
		}
		t.Logf("rep %d: window %s, starts %s apart, ends %s", rep.Index, win, s.Start, s.End)
		if s.Start > win/100 || s.End > win/100 {
			t.Errorf("rep %d: groups' starts %s and ends %s apart, want within 1 %% of the %s window", rep.Index, s.Start, s.End, win)
		}
		var sum float64
		for i := range rep.Groups {
			sum += rep.Groups[i].Rate()
		}
		if got := rep.Total.Rate(); math.Abs(got-sum) > sum/100 {
			t.Errorf("rep %d: rate %.1f, the groups' rates add up to %.1f", rep.Index, got, sum)
		}
		counts.Add(&rep.Total.Counts)
	}
	testkit.SameResponses(t, "nginx", uint64(len(nginxtest.ReadLog(t, filepath.Join(ng.Dir, "access.log")))), counts)
}

// appendFile appends b to the file at path.
func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.Write(b)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
}
