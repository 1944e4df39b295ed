package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios"
)

// planJSON encodes a plan for comparison, without the file it came from
// (which names it in Source and in located warnings).
func planJSON(t *testing.T, p *scenarios.Plan, source string) string {
	t.Helper()
	q := *p
	q.Source = ""
	for i, w := range q.Warnings {
		q.Warnings[i] = strings.ReplaceAll(w, source, "FILE")
	}
	b, err := json.MarshalIndent(&q, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPrintScenarioCompilesToSamePlan: for each set of URL-mode flags, the
// YAML that "kaeload run URL … --print-scenario" prints (the built
// binary), saved as a file and compiled as a scenario file is, gives the
// same Plan as URL mode builds from the flags.
func TestPrintScenarioCompilesToSamePlan(t *testing.T) {
	url := "https://127.0.0.1:8443/index.html"
	for _, flags := range [][]string{
		{},
		{"-c", "200", "-d", "60s", "-t", "11", "--cpus", "0-9,10-19"},
		{"--groups", "11", "--cpus-per-group", "10", "-c", "200", "-t", "11", "--warmup", "0s"},
		{"--cpus", "0-3+8-11", "-H", "X-Trace: abc", "-H", "Accept: */*", "--keepalive", "--tls-version", "1.2",
			"--ciphers", "ECDHE-RSA-AES128-GCM-SHA256,ECDHE-RSA-AES256-GCM-SHA384", "--curves", "X25519,P-256", "--insecure", "--name", "my test"},
		{"--tls-version", "1.3", "-c", "4", "--threshold", "errors == 0"},
	} {
		args := append([]string{"run", url, "--print-scenario"}, flags...)
		out, errOut, code := kaeload(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("kaeload %v: exit %d\n%s", args, code, errOut)
		}
		path := filepath.Join(t.TempDir(), "printed.yaml")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		var thresholds []string
		if i := indexOf(flags, "--threshold"); i >= 0 {
			thresholds = []string{flags[i+1]}
		}
		fromFile, err := compileWith(path, nil, thresholds, true)
		if err != nil {
			t.Fatalf("%v: the printed scenario does not compile: %v\n%s", flags, err, out)
		}

		// URL mode in this process, from the same flags.
		var ol oneLine
		fs := newFlagSet("run", "", "", &strings.Builder{})
		ol.register(fs)
		var ths stringsFlag
		fs.Var(&ths, "threshold", "")
		if _, err := parse(fs, append([]string{url}, flags...)); err != nil {
			t.Fatal(err)
		}
		fromFlags, text, err := compileOneLine(&ol, url, nil, ths, true)
		if err != nil {
			t.Fatalf("%v: %v", flags, err)
		}
		if text != out {
			t.Errorf("%v: the scenario run differs from the one printed:\n%s\n---\n%s", flags, text, out)
		}
		if got, want := planJSON(t, fromFlags, oneLineSource), planJSON(t, fromFile, path); got != want {
			t.Errorf("%v: plans differ\nURL mode:\n%s\nfile:\n%s", flags, got, want)
		}
	}
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// TestURLModeFlags: URL-mode flags with a file, or flags that cannot
// make a scenario, are exit status 2; values the scenario refuses are 2
// with the scenario's message.
func TestURLModeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "x.yaml", "-c", "5"}, "-c: only with a URL"},
		{[]string{"run", "https://127.0.0.1/", "-H", "nocolon"}, `-H "nocolon": want "Name: value"`},
		{[]string{"run", "https://127.0.0.1/", "--tls-version", "1.1"}, `--tls-version "1.1"`},
		{[]string{"run", "https://127.0.0.1/", "--cpus", "0", "--groups", "2", "--cpus-per-group", "1"}, "--cpus and --groups"},
		{[]string{"run", "https://127.0.0.1/", "-c", "-3", "--dry-run"}, "connections"},
		{[]string{"run", "https://127.0.0.1/", "--curves", "nope", "--dry-run"}, "nope"},
	} {
		_, errOut, code := kaeload(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("kaeload %v: exit %d, stderr lacks %q:\n%s", tc.args, code, tc.want, errOut)
		}
	}
}

// TestURLModeNginx is TestNginxCounts in URL mode, through the built
// binary: every request nginx logged is one kaeload accounted for, every
// handshake full, with the TLS version and cipher the flags asked for;
// the run directory keeps the scenario URL mode wrote.
func TestURLModeNginx(t *testing.T) {
	server, cpus := "", []string{}
	if online, _ := pinning.Online(); online.Contains(0) && online.Contains(1) {
		server, cpus = "0", []string{"--cpus", "1"}
	}
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "rsa2048", CPUs: server})
	dir := filepath.Join(t.TempDir(), "run")
	url := "https://" + ng.Addr + "/index.html"
	flags := append([]string{"-c", "8", "-d", "1s", "--warmup", "300ms", "--tls-version", "1.2",
		"--ciphers", "ECDHE-RSA-AES128-GCM-SHA256", "-H", "X-Test: one-line", "--insecure"}, cpus...)
	printed, errOut, code := kaeload(t, append([]string{"run", url, "--print-scenario"}, flags...)...)
	if code != 0 {
		t.Fatalf("--print-scenario: exit %d\n%s", code, errOut)
	}
	out, errOut, code := kaeload(t, append([]string{"run", url, "-o", dir, "--progress", "off", "--format", "json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	r, err := results.ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Scenario != printed {
		t.Errorf("run.json's scenario differs from --print-scenario:\n%s\n---\n%s", r.Scenario, printed)
	}
	total := r.Variants[0].Reps[0].Total
	lines := ng.Log(t)
	if total.Requests == 0 {
		t.Fatal("no requests counted")
	}
	if total.Errors.Total() != 0 || total.Outside.Abandoned != 0 || total.Outside.WarmupErrors != 0 {
		t.Fatalf("errors %+v, outside %+v: the exact check needs a clean run", total.Errors, total.Outside)
	}
	if got, want := uint64(len(lines)), total.Responses(); got != want {
		t.Errorf("nginx logged %d requests; kaeload read %d in the window + %d warm-up + %d late = %d",
			got, total.Requests, total.Outside.Warmup, total.Outside.Late, want)
	}
	if total.Resumed != 0 || total.Handshakes != total.Requests {
		t.Errorf("client: %d handshakes, %d resumed for %d requests", total.Handshakes, total.Resumed, total.Requests)
	}
	for _, l := range lines {
		if l.Reused || l.Protocol != "TLSv1.2" || l.Cipher != "ECDHE-RSA-AES128-GCM-SHA256" {
			t.Fatalf("nginx logged %+v, want a full TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 handshake", l)
		}
	}
	var sum struct {
		Variants []struct {
			Requests uint64 `json:"requests"`
		} `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Variants) != 1 || sum.Variants[0].Requests != total.Requests {
		t.Errorf("stdout summary %v (%v), want %d requests", sum, err, total.Requests)
	}
}
