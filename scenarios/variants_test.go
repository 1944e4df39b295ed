package scenarios

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// compileVariants compiles yaml read as file name and returns the plan.
func compileNamed(t *testing.T, name, yaml string) *plans.Plan {
	t.Helper()
	s, err := Parse(name, []byte(yaml))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	p, err := s.Compile(eightCPUs)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	mustCheck(t, p)
	return p
}

func jsonText(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// TestCompileServerAndSweep compiles a scenario using every server field
// and checks every resolved variant: {vars} replaced in names, env, vars,
// commands and probes from sweep > variant vars > top vars > built-ins;
// env merged server < variant; per-variant command overrides; Series and
// Sweep set on swept variants only.
func TestCompileServerAndSweep(t *testing.T) {
	const yaml = `
vars: {conf: /etc/nginx/nginx.conf, bin: /usr/sbin/nginx, port: 8443, cnf: "{scenario_dir}/kae.cnf"}
target: {url: "https://127.0.0.1:{port}/"}
server:
  host: local
  start: "{bin} -c {conf}"
  stop: "{bin} -c {conf} -s quit"
  reload: "{bin} -s reload"
  env: {LD_LIBRARY_PATH: /usr/local/lib, OPENSSL_CONF: /server.cnf}
  ready: {tls: "127.0.0.1:{port}", timeout: 5s, interval: 200ms}
  command_timeout: 7s
  probes:
    - {name: hpre, command: "grep send {{x}} {conf}", pattern: 'send_cnt:\s*(\d+)'}
order: interleaved
cooldown: 2s
repeat: 2
variants:
  - name: base
  - name: kae
    env: {OPENSSL_CONF: "{cnf}"}
    vars: {conf: "/etc/nginx/kae-{port}.conf"}
    start: "{bin} -c {conf} -g 'daemon on;'"
    reload: ""
  - name: soft-{ratio}
    env: {OPENSSL_CONF: "{cnf}", KAE_GO_SOFT_RATIO: "{ratio}"}
    sweep: {ratio: [0, 33.5, "x"]}
baseline: kae
`
	p := compileNamed(t, "/srv/bench/t.yaml", yaml)
	top := map[string]string{"conf": "/etc/nginx/nginx.conf", "bin": "/usr/sbin/nginx", "port": "8443", "cnf": "/srv/bench/kae.cnf"}
	with := func(m map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	probe := []plans.Probe{{Name: "hpre", Command: "grep send {x} /etc/nginx/nginx.conf", Pattern: `send_cnt:\s*(\d+)`}}
	soft := func(ratio string) plans.Variant {
		return plans.Variant{Name: "soft-" + ratio,
			Env:   map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "OPENSSL_CONF": "/srv/bench/kae.cnf", "KAE_GO_SOFT_RATIO": ratio},
			Vars:  with(top, "ratio", ratio),
			Start: "/usr/sbin/nginx -c /etc/nginx/nginx.conf", Stop: "/usr/sbin/nginx -c /etc/nginx/nginx.conf -s quit",
			Reload: "/usr/sbin/nginx -s reload", Probes: probe,
			Series: "soft-{ratio}", Sweep: map[string]string{"ratio": ratio}}
	}
	want := []plans.Variant{
		{Name: "base", Env: map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "OPENSSL_CONF": "/server.cnf"}, Vars: top,
			Start: "/usr/sbin/nginx -c /etc/nginx/nginx.conf", Stop: "/usr/sbin/nginx -c /etc/nginx/nginx.conf -s quit",
			Reload: "/usr/sbin/nginx -s reload", Probes: probe},
		{Name: "kae", Env: map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "OPENSSL_CONF": "/srv/bench/kae.cnf"},
			Vars:  with(top, "conf", "/etc/nginx/kae-8443.conf"),
			Start: "/usr/sbin/nginx -c /etc/nginx/kae-8443.conf -g 'daemon on;'", Stop: "/usr/sbin/nginx -c /etc/nginx/kae-8443.conf -s quit",
			Probes: []plans.Probe{{Name: "hpre", Command: "grep send {x} /etc/nginx/kae-8443.conf", Pattern: `send_cnt:\s*(\d+)`}}},
		soft("0"), soft("33.5"), soft("x"),
	}
	if !reflect.DeepEqual(p.Variants, want) {
		t.Errorf("variants:\ngot  %s\nwant %s", jsonText(p.Variants), jsonText(want))
	}
	wantServer := &plans.Server{Host: "local", CommandTimeout: 7 * time.Second,
		Ready: plans.Ready{Kind: "tls", Addr: "127.0.0.1:8443", Interval: 200 * time.Millisecond, Timeout: 5 * time.Second}, Info: plans.NginxInfo}
	if !reflect.DeepEqual(p.Server, wantServer) {
		t.Errorf("server: got %+v, want %+v", p.Server, wantServer)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"order", p.Order, results.OrderInterleaved},
		{"cooldown", p.Cooldown, 2 * time.Second},
		{"baseline", p.Baseline, "kae"},
		{"target addr", p.Target.Addr, "127.0.0.1:8443"},
		{"target url", p.Target.URL, "https://127.0.0.1:8443/"},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	// The plan survives the worker pipe and results files.
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q plans.Plan
	if err := json.Unmarshal(b, &q); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, &q) {
		t.Errorf("JSON round trip differs:\ngot  %s\nwant %s", jsonText(&q), jsonText(p))
	}
}

// TestSweepValues checks list, range and cartesian expansion and order.
func TestSweepValues(t *testing.T) {
	tests := []struct {
		name, sweep, tmpl string
		want              []string
	}{
		{"list of numbers and strings", `{r: [0, 10, 33, 1.5, abc, "007"]}`, "v-{r}", []string{"v-0", "v-10", "v-33", "v-1.5", "v-abc", "v-007"}},
		{"integer range includes to", `{r: {from: 0, to: 100, step: 25}}`, "v-{r}", []string{"v-0", "v-25", "v-50", "v-75", "v-100"}},
		{"range stops before to", `{r: {from: 0, to: 10, step: 3}}`, "v-{r}", []string{"v-0", "v-3", "v-6", "v-9"}},
		{"decimal range has no float noise", `{r: {from: 0, to: 0.3, step: 0.1}}`, "v-{r}", []string{"v-0", "v-0.1", "v-0.2", "v-0.3"}},
		{"decimal range writes integers plainly", `{r: {from: 0.5, to: 1.5, step: 0.25}}`, "v-{r}", []string{"v-0.5", "v-0.75", "v-1", "v-1.25", "v-1.5"}},
		{"negative from", `{r: {from: -2, to: 2, step: 2}}`, "v{r}", []string{"v-2", "v0", "v2"}},
		{"single value range", `{r: {from: 5, to: 5, step: 1}}`, "v-{r}", []string{"v-5"}},
		{"cartesian product, first key slowest", `{a: [1, 2], b: [x, y, z]}`, "v-{b}-{a}",
			[]string{"v-x-1", "v-y-1", "v-z-1", "v-x-2", "v-y-2", "v-z-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := "target: {url: https://127.0.0.1:8443/}\nserver: {start: nginx}\nvariants:\n  - name: \"" + tt.tmpl + "\"\n    sweep: " + tt.sweep + "\n"
			p := compileNamed(t, "t.yaml", yaml)
			if got := names(p.Variants); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for _, v := range p.Variants {
				if v.Series != tt.tmpl || len(v.Sweep) == 0 {
					t.Errorf("%s: series %q sweep %v, want series %q and its values", v.Name, v.Series, v.Sweep, tt.tmpl)
				}
			}
		})
	}
}

// TestScenarioDir checks {scenario_dir} is the scenario file's absolute directory.
func TestScenarioDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{"/srv/bench/t.yaml", "/srv/bench"},
		{"t.yaml", wd},
		{"sub/dir/t.yaml", filepath.Join(wd, "sub", "dir")},
		{"../x/t.yaml", filepath.Join(filepath.Dir(wd), "x")},
	} {
		p := compileNamed(t, tt.file, "target: {url: https://127.0.0.1/}\nserver: {start: \"sh {scenario_dir}/start.sh\"}\n")
		if got, want := p.Variants[0].Start, "sh "+tt.want+"/start.sh"; got != want {
			t.Errorf("%s: start = %q, want %q", tt.file, got, want)
		}
	}
}

// TestDefaultVariantGetsServer checks a scenario with a server and no
// variants runs one "default" variant with the server's commands and env.
func TestDefaultVariantGetsServer(t *testing.T) {
	p := compileNamed(t, "t.yaml", "target: {url: https://127.0.0.1/}\nvars: {v: 1}\nserver: {start: \"run {v}\", stop: halt, env: {A: \"{v}\"}}\n")
	want := []plans.Variant{{Name: "default", Env: map[string]string{"A": "1"}, Vars: map[string]string{"v": "1"}, Start: "run 1", Stop: "halt"}}
	if !reflect.DeepEqual(p.Variants, want) {
		t.Errorf("got %s, want %s", jsonText(p.Variants), jsonText(want))
	}
	if got, want := p.Server.Ready, (plans.Ready{Kind: "tcp", Addr: "127.0.0.1:443", Interval: DefaultReadyInterval, Timeout: DefaultReadyTimeout}); got != want {
		t.Errorf("ready = %+v, want %+v", got, want)
	}
}

// TestTemplate checks {name} parsing: escapes and malformed braces.
func TestTemplate(t *testing.T) {
	sc := scope{vals: map[string]string{"a": "1", "b_2": "two"}}
	tests := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"{a}-{b_2}", "1-two", ""},
		{"awk '{{print $1}}' {a}", "awk '{print $1}' 1", ""},
		{"${{HOME}}", "${HOME}", ""},
		{"{{a}}", "{a}", ""},
		{"{a", "", `t.yaml: x: "{a" is not a {name} reference (write {{ and }} for literal braces)`},
		{"{}", "", `t.yaml: x: "{}" is not a {name} reference (write {{ and }} for literal braces)`},
		{"{a b}", "", `t.yaml: x: "{a b}" is not a {name} reference (write {{ and }} for literal braces)`},
		{"a}", "", `t.yaml: x: lone } in "a}" (write }} for a literal brace)`},
		{"{c}", "", `t.yaml: x: unknown variable {c} (known: a, b_2; write {{ for a literal brace)`},
	}
	for _, tt := range tests {
		c := &compiler{s: &Scenario{file: "t.yaml"}}
		got, ok := c.expand("x", tt.in, sc)
		var gotErr string
		if len(c.errs) > 0 {
			gotErr = c.errs[0].Error()
		}
		if ok != (tt.err == "") || gotErr != tt.err || (ok && got != tt.want) {
			t.Errorf("expand(%q) = %q, %v, error %q; want %q, error %q", tt.in, got, ok, gotErr, tt.want, tt.err)
		}
	}
}

// TestSetServerFields applies --set to the new fields.
func TestSetServerFields(t *testing.T) {
	const base = `vars: {port: 8443}
target: {url: "https://127.0.0.1:{port}/"}
server: {start: nginx, ready: {tcp: "127.0.0.1:{port}"}}
variants:
  - name: a
  - name: b
  - name: s-{ratio}
    sweep: {ratio: {from: 0, to: 100, step: 50}}
`
	tests := []struct {
		sets  [][2]string
		check func(p *plans.Plan) (got, want any)
	}{
		{[][2]string{{"server.ready.timeout", "5s"}}, func(p *plans.Plan) (any, any) { return p.Server.Ready.Timeout, 5 * time.Second }},
		{[][2]string{{"variants[2].sweep.ratio", "[0,50]"}}, func(p *plans.Plan) (any, any) { return names(p.Variants), []string{"a", "b", "s-0", "s-50"} }},
		{[][2]string{{"variants[2].sweep.ratio.step", "25"}}, func(p *plans.Plan) (any, any) {
			return names(p.Variants), []string{"a", "b", "s-0", "s-25", "s-50", "s-75", "s-100"}
		}},
		{[][2]string{{"variants[2].sweep.k", "[x]"}, {"variants[2].name", "s-{ratio}-{k}"}}, func(p *plans.Plan) (any, any) {
			return names(p.Variants), []string{"a", "b", "s-0-x", "s-50-x", "s-100-x"}
		}},
		{[][2]string{{"vars.port", "9443"}}, func(p *plans.Plan) (any, any) {
			return [3]string{p.Target.Addr, p.Target.URL, p.Server.Ready.Addr}, [3]string{"127.0.0.1:9443", "https://127.0.0.1:9443/", "127.0.0.1:9443"}
		}},
		{[][2]string{{"order", "interleaved"}, {"cooldown", "1s"}}, func(p *plans.Plan) (any, any) {
			return [2]any{p.Order, p.Cooldown}, [2]any{results.OrderInterleaved, time.Second}
		}},
		{[][2]string{{"variants[1].env.X", "{port}"}}, func(p *plans.Plan) (any, any) { return p.Variants[1].Env, map[string]string{"X": "8443"} }},
		{[][2]string{{"server.start", "sh {scenario_dir}/x.sh {port}"}}, func(p *plans.Plan) (any, any) {
			wd, _ := os.Getwd()
			return p.Variants[0].Start, "sh " + wd + "/x.sh 8443"
		}},
		{[][2]string{{"server.probes[0]", "{name: p, command: echo 1}"}}, func(p *plans.Plan) (any, any) {
			return p.Variants[0].Probes, []plans.Probe{{Name: "p", Command: "echo 1"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sets[0][0]+"="+tt.sets[0][1], func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(base))
			if err != nil {
				t.Fatal(err)
			}
			for _, kv := range tt.sets {
				if err := s.Set(kv[0], kv[1]); err != nil {
					t.Fatalf("Set %s=%s: %v", kv[0], kv[1], err)
				}
			}
			p, err := s.Compile(eightCPUs)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			mustCheck(t, p)
			if got, want := tt.check(p); !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
		})
	}
}

// TestSetServerErrors checks overrides of the new fields that must fail,
// and that Compile locates their problems at the --set.
func TestSetServerErrors(t *testing.T) {
	const base = "target: {url: https://127.0.0.1/}\nserver: {start: nginx}\nvariants:\n  - {name: \"s-{r}\", sweep: {r: [1, 2]}}\n"
	s, err := Parse("t.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := errString(s.Set("variants[0].sweep.r.step", "2")), "variants[0].sweep.r is a list of values, not a range; set it whole"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := errString(s.Set("server.ready.udp", "x")), `unknown key "udp" in server.ready (valid keys: tcp, tls, https, timeout, interval)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, kv := range [][2]string{{"variants[0].sweep.r", "{from: 3, to: 1, step: 1}"}, {"order", "shuffled"}, {"server.ready.https", "ftp://x/"}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.Compile(eightCPUs)
	want := strings.Join([]string{
		`--set order=shuffled: order: want randomized (randomized blocks, the default), interleaved or sequential, got "shuffled"`,
		`--set server.ready.https=ftp://x/: server.ready.https: want an https:// URL such as https://127.0.0.1:443/, got "ftp://x/"`,
		`--set variants[0].sweep.r={from: 3, to: 1, step: 1}: variants[0].sweep.r.from: 3 is above to 1`,
	}, "\n")
	if got := errString(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
