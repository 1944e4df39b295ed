package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// planJSON encodes a plan for comparison, without the file it came from
// (Source) and without its warnings, which name a file's lines or the
// flags (see sameWarnings).
func planJSON(t *testing.T, p *plans.Plan) string {
	t.Helper()
	q := *p
	q.Source, q.Warnings = "", nil
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
		fromFile, err := compile(path, nil, thresholds, true)
		if err != nil {
			t.Fatalf("%v: the printed scenario does not compile: %v\n%s", flags, err, out)
		}

		// URL mode in this process, from the same flags.
		var ol oneLine
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		ol.register(fs)
		var ths []string
		fs.Func("threshold", "", appendTo(&ths))
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
		if got, want := planJSON(t, fromFlags), planJSON(t, fromFile); got != want {
			t.Errorf("%v: plans differ\nURL mode:\n%s\nfile:\n%s", flags, got, want)
		}
		sameWarnings(t, fromFlags.Warnings, fromFile.Warnings, path)
	}
}

// sameWarnings checks that URL mode warns as the file does, naming flags
// where the file's warnings name lines and field paths
// ("FILE:8:13: load.groups[0].cpus: MSG" against "--cpus 0-9: MSG"; one
// flag's warning for two groups is given once).
func sameWarnings(t *testing.T, flags, file []string, path string) {
	t.Helper()
	msgs := map[string]bool{}
	for _, w := range file {
		_, rest, _ := strings.Cut(strings.TrimPrefix(w, path+":"), ": ")
		_, msg, _ := strings.Cut(rest, ": ")
		msgs[msg] = true
	}
	for _, w := range flags {
		_, msg, _ := strings.Cut(w, ": ")
		if !msgs[msg] || !strings.HasPrefix(w, "-") || strings.Contains(w, "load.") {
			t.Errorf("URL mode warns %q, want a flag and one of the file's messages %q", w, file)
		}
		delete(msgs, msg)
	}
	if len(msgs) > 0 {
		t.Errorf("URL mode warns %q, the file %q", flags, file)
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
		{[]string{"run", "https://127.0.0.1/", "-c", "-3", "--dry-run"}, "-c -3: must be at least 1, got -3"},
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
	r, err := readRun(dir)
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
	testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
}

// TestURLModeErrorsNameTheFlag: in URL mode there is no scenario file, so
// each flag with a bad value is named in the error, as typed, and no
// message names a generated file or the scenario's field paths. Exit 2,
// before any load.
func TestURLModeErrorsNameTheFlag(t *testing.T) {
	online, err := pinning.Online()
	if err != nil || len(online) == 0 {
		t.Fatalf("online CPUs: %v", err)
	}
	next := online[len(online)-1] + 1
	far := strconv.Itoa(next) + "-" + strconv.Itoa(next+7)
	const url = "https://127.0.0.1:1/"
	for _, tc := range []struct {
		args []string
		want string // the whole message, after "kaeload: "
	}{
		{[]string{url, "-c", "-5"}, "-c -5: must be at least 1, got -5"},
		// 0 is given, not "use the default".
		{[]string{url, "-c", "0"}, "-c 0: must be at least 1, got 0"},
		{[]string{url, "-t", "0"}, "-t 0: must be at least 1, got 0"},
		{[]string{url, "-d", "0"}, "-d 0s: must be positive, got 0s"},
		{[]string{url, "-c", "many"}, `run: invalid value "many" for flag -c: want a whole number (see kaeload run --help)`},
		{[]string{url, "-c", "100000"}, "-c 100000: 100000 is more than the 65535 allowed (each connection needs its own source port towards the target and an open file)"},
		{[]string{url, "-t", "-1"}, "-t -1: must be at least 1, got -1"},
		{[]string{url, "-d", "-1s"}, "-d -1s: must be positive, got -1s"},
		{[]string{url, "--warmup", "2h"}, "--warmup 2h: 2h is more than the 1h allowed (warm-up only has to bring the server to a steady state)"},
		{[]string{url, "--cpus", "0," + far}, "--cpus 0," + far + ": CPU " + far + " do not exist (this machine has " + online.String() + ")"},
		{[]string{url, "--cpus", "0-x"}, `--cpus 0-x: CPU list "0-x": "x" is not a CPU number (want e.g. 0-9,20-29,40)`},
		// "+" joins ranges; the message quotes the list as typed, not as
		// rewritten for the scenario ("0-1,").
		{[]string{url, "--cpus", "0-1+"}, `--cpus 0-1+: CPU list "0-1+": "" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{[]string{url, "--cpus", "0+y,1"}, `--cpus 0+y,1: CPU list "0+y": "y" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{[]string{url, "-d", "sixty"}, `run: invalid value "sixty" for flag -d: want a duration such as 30s or 2m, or a number of seconds such as 60 (see kaeload run --help)`},
		{[]string{url, "--warmup", "1e3"}, `run: invalid value "1e3" for flag -warmup: want a duration such as 30s or 2m, or a number of seconds such as 60 (see kaeload run --help)`},
		{[]string{url, "--groups", "2", "--cpus-per-group", "8", "--first-cpu", strconv.Itoa(next)},
			"--groups 2 --cpus-per-group 8 --first-cpu " + strconv.Itoa(next) + ": 2 groups of 8 CPUs from CPU " + strconv.Itoa(next) + " need CPU " + strconv.Itoa(next) + "-" + strconv.Itoa(next+15) + "; CPU " + strconv.Itoa(next) + "-" + strconv.Itoa(next+15) + " do not exist (this machine has " + online.String() + ")"},
		{[]string{url, "--groups", "-1", "--cpus-per-group", "1"}, "--groups -1: must be from 1 to 65536, got -1"},
		{[]string{url, "--groups", "1", "--cpus-per-group", "1", "--first-cpu", "-5"}, "--first-cpu -5: must be from 0 to 65536, got -5"},
		{[]string{url, "--groups", "2"}, "run: --groups 2: give --cpus-per-group too (or --cpus)"},
		{[]string{url, "-H", "Bad Name: x"}, `-H "Bad Name: x": "Bad Name" is not a valid header name`},
		{[]string{url, "--ciphers", "FOO"}, `--ciphers FOO: unknown cipher suite "FOO" (want a name Go implements, in OpenSSL form such as ECDHE-RSA-AES128-GCM-SHA256 or IANA form such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)`},
		{[]string{url, "--curves", "X25519,BAR"}, `--curves X25519,BAR: unknown curve "BAR" (want one of X25519, P-256, P-384, P-521, X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024)`},
		{[]string{"http://127.0.0.1:1/", "--tls-version", "1.3"}, "--tls-version 1.3: TLS settings on an http:// URL (use https:// or remove tls)"},
		{[]string{url, "--name", "a/b"}, `--name a/b: "a/b" may not contain slashes or control characters (it names the results directory)`},
		{[]string{"https://127.0.0.1:99999/"}, `URL: "https://127.0.0.1:99999/": port "99999" is not a number from 1 to 65535`},
		{[]string{url, "-d", "5s", "--set", "load.duration=-1s"}, "--set load.duration=-1s: load.duration: must be positive, got -1s"},
		{[]string{url, "--threshold", "req/s > lots"}, `--threshold "req/s > lots": "lots" is not a rate in req/s (want e.g. 100000)`},
		{[]string{url, "--seed", "x"}, `run: --seed "x": want a whole number from 0 to 18446744073709551615 (a run prints and stores its seed)`},
	} {
		_, errOut, code := runArgs(append([]string{"run"}, tc.args...)...)
		if want := "kaeload: " + tc.want + "\n"; code != 2 || errOut != want {
			t.Errorf("kaeload run %q: exit %d, stderr:\n%s\nwant exit 2 and:\n%s", tc.args, code, errOut, want)
		}
	}
	// --dry-run shows a plan for another machine, its missing CPUs as
	// warnings: named by flag too.
	out, errOut, code := runArgs("run", url, "--cpus", "0,"+far, "--dry-run")
	if want := "warnings  --cpus 0," + far + ": CPU " + far + " do not exist (this machine has " + online.String() + "): the run would fail here\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("--dry-run: exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
	}
	if strings.Contains(out, ".yaml") || strings.Contains(out, "load.groups") {
		t.Errorf("--dry-run names a file or a field path:\n%s", out)
	}
}

// TestWrkDurations: as in wrk, "-d 60" is 60 seconds, and so is a bare
// number of --warmup; "60s" still works.
func TestWrkDurations(t *testing.T) {
	for _, tc := range []struct {
		d, warmup    string
		want, wantWU string
	}{
		{"60", "0.5", "duration: 1m0s", "warmup: 500ms"},
		{"60s", "2s", "duration: 1m0s", "warmup: 2s"},
		{"1.5", "0", "duration: 1.5s", "warmup: 0s"},
	} {
		out, errOut, code := runArgs("run", "https://127.0.0.1:1/", "-d", tc.d, "--warmup", tc.warmup, "--print-scenario")
		if code != 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, tc.wantWU) {
			t.Errorf("-d %s --warmup %s: exit %d, scenario lacks %q and %q:\n%s%s", tc.d, tc.warmup, code, tc.want, tc.wantWU, out, errOut)
		}
	}
}

// TestPrintScenarioOnlyValid: --print-scenario prints a scenario only
// when it compiles; otherwise exit 2 with the error and nothing on
// standard output, which a "> file.yaml" would keep.
func TestPrintScenarioOnlyValid(t *testing.T) {
	for _, args := range [][]string{
		{"--cpus", "0-1+"},
		{"-c", "0"},
		{"--curves", "nope"},
		{"--set", "load.duration=-1s"},
	} {
		out, errOut, code := runArgs(append([]string{"run", "https://127.0.0.1:1/", "--print-scenario"}, args...)...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout and the error", args, code, out, errOut)
		}
	}
}
