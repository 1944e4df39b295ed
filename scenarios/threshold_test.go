package scenarios

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

func TestParseThreshold(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want results.Threshold
	}{
		{"req/s >= 100000", results.Threshold{Metric: results.MetricRate, Op: ">=", Value: 100000}},
		{"req/s>=1.5", results.Threshold{Metric: results.MetricRate, Op: ">=", Value: 1.5}},
		{"errors < 0.1%", results.Threshold{Metric: results.MetricErrorShare, Op: "<", Value: 0.001}},
		{"errors == 0", results.Threshold{Metric: results.MetricErrors, Op: "==", Value: 0}},
		{"p99 handshake < 20ms", results.Threshold{Metric: results.MetricLatency, Latency: "handshake", Quantile: 99, Op: "<", Value: 20000}},
		{"p99.9 latency <= 1.5s", results.Threshold{Metric: results.MetricLatency, Latency: "total", Quantile: 99.9, Op: "<=", Value: 1.5e6}},
		{"p50 connect > 0s", results.Threshold{Metric: results.MetricLatency, Latency: "connect", Quantile: 50, Op: ">", Value: 0}},
		{"client_bound == false", results.Threshold{Metric: results.MetricClientBound, Op: "==", Value: 0}},
		{"client_bound != true", results.Threshold{Metric: results.MetricClientBound, Op: "!=", Value: 1}},
		{"server_saturated == true", results.Threshold{Metric: results.MetricServerSaturated, Op: "==", Value: 1}},
		{"kae vs baseline >= +30%", results.Threshold{Metric: results.MetricVs, Variant: "kae", Against: "baseline", Op: ">=", Value: 0.30}},
		{"kae vs soft > -5%", results.Threshold{Metric: results.MetricVs, Variant: "kae", Against: "soft", Op: ">", Value: -0.05}},
		{"listen_overflows == 0", results.Threshold{Metric: results.MetricListenOverflows, Op: "==", Value: 0}},
		{"stalls <= 2", results.Threshold{Metric: results.MetricStalls, Op: "<=", Value: 2}},
		{"diagnoses==0", results.Threshold{Metric: results.MetricDiagnoses, Op: "==", Value: 0}},
		{"probe hpre_send per request >= 0.9", results.Threshold{Metric: results.MetricProbePerRequest, Probe: "hpre_send", Op: ">=", Value: 0.9}},
		{"probe hpre_send > 0", results.Threshold{Metric: results.MetricProbe, Probe: "hpre_send", Op: ">", Value: 0}},
		{"probe drift >= -5", results.Threshold{Metric: results.MetricProbe, Probe: "drift", Op: ">=", Value: -5}},
	} {
		got, err := ParseThreshold(tc.expr)
		tc.want.Expr = tc.expr
		if err != nil || got.Metric != tc.want.Metric || got.Op != tc.want.Op || math.Abs(got.Value-tc.want.Value) > 1e-12 ||
			got.Latency != tc.want.Latency || got.Quantile != tc.want.Quantile || got.Variant != tc.want.Variant || got.Against != tc.want.Against || got.Probe != tc.want.Probe {
			t.Errorf("ParseThreshold(%q) = %+v, %v; want %+v", tc.expr, got, err, tc.want)
		}
	}
}

func TestParseThresholdErrors(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"", "empty threshold"},
		{"req/s 100", "has no comparison"},
		{"req/s = 100", `"=" is not a comparison (want ==)`},
		{">= 100", "has nothing before >="},
		{"req/s >=", "has no value after >="},
		{"req/s >= 1 2", `unexpected "2" after the value "1"`},
		{"req/s >= -1", `"-1" is not a rate`},
		{"req/s >= 1e9", `"1e9" is not a rate`},
		{"errors < 101%", "more than 100%"},
		{"errors < lots", "neither a percentage"},
		{"p0 handshake < 1ms", `"p0" is not a percentile`},
		{"p101 handshake < 1ms", `"p101" is not a percentile`},
		{"p99 tls < 1ms", `"tls" is not a latency`},
		{"p99 handshake < 20", `"20" is not a duration`},
		{"client_bound == maybe", "true or false"},
		{"client_bound < true", "compares with == or !="},
		{"server_saturated >= true", "server_saturated compares with == or !="},
		{"server_saturated == 1", "server_saturated is true or false"},
		{"kae vs baseline >= 30", "not a percentage"},
		{"latency < 2ms", `unknown measure "latency"`},
		{"listen_overflows == none", `"none" is not a count`},
		{"stalls < 1.5", `"1.5" is not a count`},
		{"stalls < -1", `"-1" is not a count`},
		{"stall == 0", `unknown measure "stall"`},
		{"probe >= 1", `want "probe NAME OP NUMBER"`},
		{"probe hpre per second >= 1", `want "probe NAME OP NUMBER" (its mean delta per window) or "probe NAME per request OP NUMBER"`},
		{"probe hpre per request >= most", `"most" is not a number (want e.g. 0.9)`},
		{"probe hpre > 1e3", `"1e3" is not a number`},
	} {
		_, err := ParseThreshold(tc.expr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseThreshold(%q): error %v, want one containing %q", tc.expr, err, tc.want)
		}
	}
}

// TestCompileThresholds: thresholds resolve into the Plan ("baseline"
// named), and every bad one is reported at once with file:line:col, the
// command line's with --threshold.
func TestCompileThresholds(t *testing.T) {
	src := `name: t
target: {builtin: {}}
load: {groups: [{cpus: "0", connections: 1}]}
variants:
  - name: soft
  - name: kae
thresholds:
  - req/s >= 100
  - kae vs baseline >= +30%
`
	sc, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sc.AddThreshold("p99 handshake < 20ms")
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Thresholds) != 3 || p.Thresholds[1].Against != "soft" || p.Thresholds[1].Variant != "kae" || p.Thresholds[2].Latency != "handshake" {
		t.Errorf("Thresholds = %+v", p.Thresholds)
	}

	bad := strings.Replace(src, "  - req/s >= 100\n", "  - req/s >= lots\n  - qat vs baseline >= 5%\n  - kae vs kae > 1%\n  - stalls == few\n", 1)
	sc, err = Parse("t.yaml", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	sc.AddThreshold("errors <")
	_, err = sc.Compile(smallHost)
	for _, want := range []string{
		`t.yaml:8:5: thresholds[0]: "req/s >= lots": "lots" is not a rate`,
		`t.yaml:9:5: thresholds[1]: "qat vs baseline >= 5%": "qat" names no variant (variants: soft, kae; or baseline)`,
		`t.yaml:10:5: thresholds[2]: "kae vs kae > 1%" compares kae with itself`,
		`t.yaml:11:5: thresholds[3]: "stalls == few": "few" is not a count`,
		`--threshold "errors <": "errors <" has no value after <`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Compile error lacks %q:\n%v", want, err)
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("Compile error %v is not an *Error", err)
	}
}

// TestCompileProbeThresholds: a probe threshold names one of
// server.probes; one that names another probe, or a scenario without
// probes, is an error at its line and column.
func TestCompileProbeThresholds(t *testing.T) {
	src := `name: t
target: {url: "https://127.0.0.1:8443/"}
load: {groups: [{cpus: "0", connections: 1}]}
server:
  start: "true"
  probes:
    - {name: hpre_send, command: "cat /sys/kernel/debug/hisi_hpre/x/hpre_dfx/send_cnt"}
thresholds:
  - probe hpre_send per request >= 0.9
  - probe hpre_recv > 0
`
	sc, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sc.AddThreshold("probe qat > 0")
	_, err = sc.Compile(smallHost)
	for _, want := range []string{
		`t.yaml:10:5: thresholds[1]: "probe hpre_recv > 0": "hpre_recv" names no probe (server.probes: hpre_send)`,
		`--threshold "probe qat > 0": "qat" names no probe (server.probes: hpre_send)`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Compile error lacks %q:\n%v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "thresholds[0]") {
		t.Errorf("a threshold on an existing probe is refused:\n%v", err)
	}
	sc, err = Parse("t.yaml", []byte(strings.Replace(src, "  - probe hpre_recv > 0\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Thresholds; len(got) != 1 || got[0].Metric != results.MetricProbePerRequest || got[0].Probe != "hpre_send" || got[0].Value != 0.9 {
		t.Errorf("Thresholds = %+v, want hpre_send per request >= 0.9", got)
	}
	noProbes := "name: t\ntarget: {builtin: {}}\nload: {groups: [{cpus: \"0\", connections: 1}]}\nthresholds: [probe x > 0]\n"
	sc, err = Parse("n.yaml", []byte(noProbes))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Compile(smallHost); err == nil || !strings.Contains(err.Error(), `n.yaml:4:14: thresholds[0]: "probe x > 0": "x" names no probe (server.probes has none)`) {
		t.Errorf("Compile error = %v, want one naming the missing probe", err)
	}
}

// FuzzParseThreshold: never a panic; a parsed threshold holds a known
// metric and operator and a finite value.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"req/s >= 100000", "errors < 0.1%", "errors == 0", "p99 handshake < 20ms",
		"client_bound == false", "kae vs baseline >= +30%", "p99.99 ttfb<=1h", "a vs b != -0%", "=<>!", "p vs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := ParseThreshold(s)
		if err != nil {
			return
		}
		switch th.Metric {
		case results.MetricRate, results.MetricErrors, results.MetricErrorShare, results.MetricLatency, results.MetricClientBound, results.MetricVs,
			results.MetricListenOverflows, results.MetricStalls, results.MetricDiagnoses, results.MetricProbe, results.MetricProbePerRequest:
		default:
			t.Fatalf("%q: metric %q", s, th.Metric)
		}
		if !strings.Contains("< <= > >= == !=", th.Op) || th.Op == "" || math.IsNaN(th.Value) || math.IsInf(th.Value, 0) {
			t.Fatalf("%q: %+v", s, th)
		}
		if th.Metric == results.MetricVs && (th.Variant == "" || th.Against == "") {
			t.Fatalf("%q: %+v", s, th)
		}
	})
}
