package main

import (
	"bytes"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/rundir"
)

// needPerf skips without perf, except under CI=true (.ci/run installs it).
func needPerf(t *testing.T) {
	t.Helper()
	testkit.NeedCommand(t, "perf", "Debian's linux-perf")
}

// TestLocalNginxProfile runs examples/local-nginx.yaml's four variants
// (RSA-2048, RSA-4096, ECDSA P-256, RSA-2048 with OpenSSL's assembly
// masked) with server.profile on, one short window each: every variant
// has a profile whose library shares sum to 100 %, RSA-4096 spends a
// larger share in libcrypto than ECDSA P-256 (94 % vs 60 % here), the
// samples agree with nginx's CPU seconds ×
// 499 within 10 %, and the run directory's pprof file opens with `go tool
// pprof -top`.
func TestLocalNginxProfile(t *testing.T) {
	const example = "../../examples/local-nginx.yaml"
	needPerf(t)
	nginxtest.Binary(t)
	_, port, _ := net.SplitHostPort(testkit.FreeAddr(t))
	sets := setFlags{
		{"vars.port", port},
		{"vars.run", t.TempDir()},
		{"load.duration", "1s"},
		{"load.warmup", "200ms"},
		{"repeat", "1"},
		{"server.profile", "true"},
	}
	plan, err := compile(example, sets, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	steal := testkit.HostSteal(t)
	r, log := runPlan(t, plan)
	steal = testkit.HostSteal(t) - steal
	m := analysis.Analyze(r)
	if m.Profile == nil {
		t.Fatalf("no profile in the report\n%s", log)
	}
	libcrypto, samples := map[string]float64{}, map[string]uint64{}
	var all analysis.ProfileCheck
	for _, v := range m.Profile.Variants {
		if !v.Available() {
			t.Errorf("%s: %s\n%s", v.Name, v.Missing.String(), log)
			continue
		}
		var sum float64
		for _, l := range v.Libraries {
			sum += l.Share
			if strings.HasPrefix(l.Name, "libcrypto") {
				libcrypto[v.Name] = l.Share
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: shares sum to %.6f, want 1", v.Name, sum)
		}
		samples[v.Name] = v.Samples
		c := v.Check
		t.Logf("%s: %d samples, libcrypto %.1f %%, crypto %.1f %%, bound %.2f×; self-check %+v", v.Name, v.Samples, libcrypto[v.Name]*100, v.CryptoShare*100, v.Bound, v.Check)
		if !c.Checked {
			t.Errorf("%s: no self-check", v.Name)
		}
		all.Samples += c.Samples
		all.Expected += c.Expected
		all.Steal += c.Steal
	}
	// The self-check over the four windows together: each alone may hold
	// a few /proc clock ticks only on a busy machine. Samples may exceed
	// the CPU seconds by the time the hypervisor stole from the server
	// (perf counts it), as the reports' rule has it.
	// The server's part of the host's steal is estimated: where the host
	// lost more, an excess is waived as the machine's load.
	got, tol, stolen := float64(all.Samples), analysis.ProfileCheckTolerance, all.Steal*float64(m.Profile.Rate)
	switch over := got > (1+tol)*all.Expected+stolen; {
	case over && steal > 0.05:
		testkit.WaiveBusy(t, "%d samples vs %.0f (server CPU-s × %d Hz) and %.0f stolen, while the host lost %.2f CPU-s "+
			"to its hypervisor", all.Samples, all.Expected, m.Profile.Rate, stolen, steal)
	case over || got < (1-tol)*all.Expected:
		t.Errorf("%d samples vs %.0f (server CPU-s × %d Hz) and %.0f stolen: ratio %.3f, want within 10 %%",
			all.Samples, all.Expected, m.Profile.Rate, stolen, got/all.Expected)
	}
	// RSA-4096 spends more of its CPU in libcrypto than ECDSA P-256 on any
	// x86 CPU: a private-key operation ten times dearer. (The masked
	// variant is no such test: on an AMD EPYC with OpenSSL 3.0 masking cost
	// RSA-2048 12 % of its rate, a share two points higher, within one
	// window's noise; on the Intel VM of issue 31, 82.2 % against 66.7 %.)
	// Told apart with enough samples (a quiet machine gives ~500 per
	// window): with fewer, the figures are logged.
	heavy, light := "rsa4096", "ecdsa-p256"
	switch a, b := libcrypto[heavy], libcrypto[light]; {
	case a > b:
	case min(samples[heavy], samples[light]) < minOrderSamples:
		t.Logf("libcrypto share %s %.3f ≤ %s %.3f, with %d and %d samples: too few to order them (the machine starved nginx)", heavy, a, light, b, samples[heavy], samples[light])
	default:
		t.Errorf("libcrypto share %s %.3f, %s %.3f (%d, %d samples): want %[1]s's larger", heavy, a, light, b, samples[heavy], samples[light])
	}
	files, err := dirFiles(r)
	if err != nil {
		t.Fatal(err)
	}
	pprofName := m.Profile.Variants[0].Pprof
	if _, ok := files[rundir.ProfileFile]; !ok || files[pprofName] == nil {
		t.Fatalf("run directory files %v lack %s or %s", keys(files), rundir.ProfileFile, pprofName)
	}
	// A real profile's pprof file parses (render's TestWriteProfilePprof
	// opens one with go tool pprof -top) and holds every sample.
	pp, err := profile.Parse(bytes.NewReader(files[pprofName]))
	if err != nil {
		t.Fatalf("%s: %v", pprofName, err)
	}
	var n int64
	for _, s := range pp.Sample {
		n += s.Value[0]
	}
	if got, want := uint64(n), m.Profile.Variants[0].Samples; got != want {
		t.Errorf("%s holds %d samples, want %d", pprofName, got, want)
	}
}

// minOrderSamples is how many samples each of two profiles needs before
// TestLocalNginxProfile requires their libcrypto shares in order: at 94 %
// and 60 %, 200 each put the difference 9 standard errors from 0.
const minOrderSamples = 200

// keys lists a file map's names.
func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestProfileWithoutPerf: with no perf on PATH the run profiling the
// built-in target exits 0, and its text report, Markdown, JSON summary,
// profile.csv and report.html each say why there is no profile.
func TestProfileWithoutPerf(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"sh", "mktemp", "mkfifo", "rm", "sed", "cat", "sleep", "timeout"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	scenario := writeScenario(t, `
name: noperf
target: {builtin: {cert: ecdsa-p256}}
load: {duration: 300ms, warmup: 100ms, groups: [{connections: 2}]}
server: {profile: true}
`)
	dir := filepath.Join(t.TempDir(), "run")
	t.Setenv("PATH", bin)
	const why = "profile not available: perf not found"
	out, errOut, code := kaeload(t, "run", scenario, "--progress", "off", "-o", dir)
	if code != 0 || !strings.Contains(out, why) {
		t.Fatalf("exit %d, want 0 and %q in the text report:\n%s\n%s", code, why, out, errOut)
	}
	for _, format := range []string{"md", "summary", "html"} {
		got, errOut, code := kaeload(t, "report", "--format", format, dir)
		if code != 0 || !strings.Contains(got, why) {
			t.Errorf("report --format %s: exit %d, want %q in:\n%s\n%s", format, code, why, got, errOut)
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, rundir.ProfileFile))
	if err != nil || !strings.Contains(string(csv), why) {
		t.Errorf("%s: %v, want %q in:\n%s", rundir.ProfileFile, err, why, csv)
	}
}

// checkRemoteProfile checks the server profile of testRemoteGroupAndServer's
// run in a network namespace (nginx on an ssh host, started and stopped
// over ssh, profiled with server.profile): perf ran there, its output
// came back as text, and the repetition's profile names the host, counts
// libcrypto among nginx's libraries and agrees with the server's CPU.
func checkRemoteProfile(t *testing.T, r *results.Run, host string, steal float64) {
	t.Helper()
	p := r.Variants[0].Reps[0].ServerProfile
	if !p.Available() {
		t.Fatalf("server profile %+v, want one", p)
	}
	if p.Host != host || p.Samples == 0 || len(p.PIDs) < 2 {
		t.Errorf("profile on %q, %d samples, PIDs %v; want %q, samples, nginx's master and worker", p.Host, p.Samples, p.PIDs, host)
	}
	found := false
	for _, l := range p.Libraries {
		found = found || strings.HasPrefix(l.Name, "libcrypto")
	}
	if !found {
		t.Errorf("libraries %+v lack libcrypto", p.Libraries)
	}
	m := analysis.Analyze(r)
	v := m.Profile.Variants[0]
	t.Logf("server profile over ssh: bound %.2f×; self-check %+v", v.Bound, v.Check)
	switch c := v.Check; {
	case c.Checked && c.Agrees:
	case c.Checked && c.Ratio > 1 && steal > 0.05: // the server's part of it is estimated
		testkit.WaiveBusy(t, "self-check %+v over the CPU, while the host lost %.2f CPU-s to its hypervisor", c, steal)
	default:
		t.Errorf("self-check %+v: want the samples to agree with the server's CPU on its host", c)
	}
}

// hasPerf reports whether perf is on PATH; under CI=true it must be.
func hasPerf(t *testing.T) bool {
	t.Helper()
	if _, err := exec.LookPath("perf"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("perf not found under CI=true: %v", err)
		}
		return false
	}
	return true
}
