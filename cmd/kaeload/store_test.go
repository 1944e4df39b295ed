package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kaeload/kaeload/results/rundir"
)

// storedRun runs the quick start into a fresh run directory.
func storedRun(t *testing.T, dir string, extra ...string) {
	t.Helper()
	args := append([]string{"run", "../../examples/quickstart.yaml", "--set", "load.duration=500ms",
		"--set", "load.warmup=100ms", "--progress", "off", "--out", dir}, extra...)
	out, errOut, code := kaeload(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "results written to "+dir) {
		t.Errorf("stderr does not say where the results went:\n%s", errOut)
	}
}

// quickRun is the quick start stored once, with three repetitions, for
// the tests that only read a stored run (TestRunDirectory,
// TestCompareRuns, TestCompareFailIfSlower); TestMain removes it.
var quickRun struct {
	once sync.Once
	dir  string
	err  error
}

// sharedRun returns quickRun's directory, storing the run on first use.
func sharedRun(t *testing.T) string {
	t.Helper()
	quickRun.once.Do(func() {
		parent, err := os.MkdirTemp("", "kaeload-quickrun-")
		if err != nil {
			quickRun.err = err
			return
		}
		quickRun.dir = filepath.Join(parent, "run")
		cmd := exec.Command(os.Args[0], "run", "../../examples/quickstart.yaml", "--set", "load.duration=500ms",
			"--set", "load.warmup=100ms", "--set", "repeat=3", "--progress", "off", "--out", quickRun.dir)
		cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			quickRun.err = fmt.Errorf("%v\n%s", err, out)
		} else if !strings.Contains(string(out), "results written to "+quickRun.dir) {
			quickRun.err = fmt.Errorf("the run does not say where the results went:\n%s", out)
		}
	})
	if quickRun.err != nil {
		t.Fatalf("store the quick start: %v", quickRun.err)
	}
	return quickRun.dir
}

// removeSharedRun removes quickRun's directory, if it was made.
func removeSharedRun() {
	if quickRun.dir != "" {
		os.RemoveAll(filepath.Dir(quickRun.dir))
	}
}

// TestRunDirectory: a run writes every file; run.json round-trips through
// "kaeload report --format json" byte for byte; summary.csv parses and its
// totals equal run.json's; the same --out is refused the second time,
// before any load is sent.
func TestRunDirectory(t *testing.T) {
	alongside(t)
	dir := sharedRun(t)
	for _, f := range []string{rundir.RunFile, rundir.SummaryFile, rundir.ReportFile, rundir.LogFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (want a non-empty file)", f, err)
		}
	}
	stored, err := os.ReadFile(filepath.Join(dir, rundir.RunFile))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := kaeload(t, "report", dir, "--format", "json")
	if code != 0 {
		t.Fatalf("report exit %d: %s", code, errOut)
	}
	if !bytes.Equal([]byte(out), stored) {
		got, want := strings.Split(out, "\n"), strings.Split(string(stored), "\n")
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Errorf("report --format json differs from run.json (%d vs %d bytes) from line %d:\n%s\nvs\n%s",
			len(out), len(stored), i+1, strings.Join(got[i:min(i+8, len(got))], "\n"), strings.Join(want[i:min(i+8, len(want))], "\n"))
	}
	r, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Scenario == "" || len(r.Host) == 0 || r.Kaeload == "" {
		t.Errorf("run.json lacks scenario text, host facts or version: scenario %d bytes, host %s, version %q", len(r.Scenario), r.Host, r.Kaeload)
	}
	f, err := os.Open(filepath.Join(dir, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("summary.csv: %v", err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	var reqs uint64
	for _, row := range rows[1:] {
		if row[col["rep"]] == "all" {
			continue
		}
		n, err := strconv.ParseUint(row[col["requests"]], 10, 64)
		if err != nil {
			t.Fatalf("summary.csv requests %q: %v", row[col["requests"]], err)
		}
		reqs += n
	}
	var want uint64
	for _, v := range r.Variants {
		for _, rep := range v.Reps {
			want += rep.Total.Requests
		}
	}
	if reqs != want || want == 0 {
		t.Errorf("summary.csv requests sum to %d, run.json %d", reqs, want)
	}
	// The JSON summary of the stored run: the one "run --format json"
	// prints, with every repetition's timeline.
	out, errOut, code = kaeload(t, "report", dir, "--format", "summary")
	if code != 0 {
		t.Fatalf("report --format summary: exit %d: %s", code, errOut)
	}
	var sum struct {
		Name     string
		Variants []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("report --format summary: %v\n%s", err, out)
	}
	var sumReqs uint64
	for _, v := range sum.Variants {
		sumReqs += uint64(v["requests"].(float64))
		for _, rep := range v["repetitions"].([]any) {
			if rep := rep.(map[string]any); rep["no_timeline"] != nil || rep["timeline"] == nil {
				t.Errorf("report --format summary: %s rep %v has no timeline", v["name"], rep["rep"])
			}
		}
	}
	if sum.Name != r.Name || sumReqs != want || len(sum.Variants) != len(r.Variants) || sum.Variants[0]["reps"] != 3.0 {
		t.Errorf("report --format summary: name %q, %d variants, %d requests; want %q, %d variants of 3 reps, %d requests",
			sum.Name, len(sum.Variants), sumReqs, r.Name, len(r.Variants), want)
	}
	_, errOut, code = kaeload(t, "run", "../../examples/quickstart.yaml", "--out", dir, "--progress", "off")
	if code == 0 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second run into %s: exit %d, want a refusal:\n%s", dir, code, errOut)
	}
}

// TestUnwritableResults fails before any load: the error names the place.
func TestUnwritableResults(t *testing.T) {
	alongside(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := kaeload(t, "run", "../../examples/quickstart.yaml", "--results", filepath.Join(file, "sub"), "--progress", "off")
	if code == 0 || !strings.Contains(errOut, "results cannot be written") || strings.Contains(errOut, "worker 0 ready") {
		t.Errorf("exit %d, want a failure before the load:\n%s", code, errOut)
	}
}

// TestCompareRuns: two stored runs of the same scenario line up by variant.
func TestCompareRuns(t *testing.T) {
	alongside(t)
	a, b := sharedRun(t), filepath.Join(t.TempDir(), "b")
	storedRun(t, b, "--set", "repeat=3") // the shared run's plan
	out, errOut, code := kaeload(t, "compare", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "default") || !strings.Contains(out, "%") {
		t.Errorf("compare output lacks the variant or a Δ %%:\n%s", out)
	}
	// Same scenario: the built-in target's per-run port does not make the plans differ.
	if !strings.Contains(out, "plans: identical") {
		t.Errorf("compare output does not call the plans identical:\n%s", out)
	}
	t.Logf("\n%s", out)
}
