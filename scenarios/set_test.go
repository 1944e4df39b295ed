package scenarios

import (
	"crypto/tls"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

const setBase = `target:
  url: https://127.0.0.1:8443/
server:
  start: nginx
load:
  groups:
    - {cpus: "0-1", connections: 10}
variants:
  - name: stock
  - name: kae
    env: {OPENSSL_CONF: /home/openssl.cnf}
`

// TestSetOverrides applies --set overrides and checks the compiled result.
func TestSetOverrides(t *testing.T) {
	tests := []struct {
		path, value string
		check       func(p *plans.Plan) (got, want any)
	}{
		{"load.duration", "2s", func(p *plans.Plan) (any, any) { return p.Load.Duration, 2 * time.Second }},
		{"load.warmup", "0", func(p *plans.Plan) (any, any) { return p.Load.Warmup, time.Duration(0) }},
		{"target.tls.resumption", "true", func(p *plans.Plan) (any, any) { return p.Target.TLS.Resumption, true }},
		{"load.groups[0].connections", "4", func(p *plans.Plan) (any, any) { return p.Load.Groups[0].Connections, 4 }},
		{"load.groups[1].cpus", "2-3", func(p *plans.Plan) (any, any) { return p.Load.Groups[1].CPUs, []int{2, 3} }},
		{"variants[1].env.FOO", "bar", func(p *plans.Plan) (any, any) {
			return p.Variants[1].Env, map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "FOO": "bar"}
		}},
		{"variants[0].env.FOO", "bar", func(p *plans.Plan) (any, any) { return p.Variants[0].Env, map[string]string{"FOO": "bar"} }},
		{"variants[2].name", "qat", func(p *plans.Plan) (any, any) { return len(p.Variants), 3 }},
		{"baseline", "kae", func(p *plans.Plan) (any, any) { return p.Baseline, "kae" }},
		{"repeat", "3", func(p *plans.Plan) (any, any) { return p.Repeat, 3 }},
		{"max_errors", "5%", func(p *plans.Plan) (any, any) { return p.MaxErrors, 0.05 }},
		{"max_errors", "0.02", func(p *plans.Plan) (any, any) { return p.MaxErrors, 0.02 }},
		{"target.tls.curves", "[P-256]", func(p *plans.Plan) (any, any) { return p.Target.TLS.Curves, []uint16{uint16(tls.CurveP256)} }},
		{"target.tls.max_version", "1.2", func(p *plans.Plan) (any, any) { return p.Target.TLS.MaxVersion, uint16(tls.VersionTLS12) }},
		{"target.headers.X-Trace", "1", func(p *plans.Plan) (any, any) {
			return string(p.Target.Request), "GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nX-Trace: 1\r\nConnection: close\r\n\r\n"
		}},
		{"target.body", "", func(p *plans.Plan) (any, any) {
			return string(p.Target.Request), "GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"
		}},
		{"load.groups", "null", func(p *plans.Plan) (any, any) { return p.Load.Groups, []plans.Group{{Threads: 8, Connections: 16}} }},
		{"load.layout", "{groups: 2, cpus_per_group: 4}", func(p *plans.Plan) (any, any) { return len(p.Load.Groups), 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(setBase))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Set(tt.path, tt.value); err != nil {
				t.Fatalf("Set: %v", err)
			}
			if tt.path == "load.layout" {
				// groups and layout together: the error points at the --set.
				_, err := s.Compile(eightCPUs)
				if got, want := errString(err), "--set load.layout={groups: 2, cpus_per_group: 4}: load.layout: give groups or layout, not both"; got != want {
					t.Errorf("got %q, want %q", got, want)
				}
				return
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

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestSetErrors checks bad overrides are refused with a useful message.
func TestSetErrors(t *testing.T) {
	tests := []struct{ path, value, want string }{
		{"load.duraton", "2s", `unknown key "duraton" in load (valid keys: connection, duration, warmup, timeout, interval, groups, layout, rate, capacity)`},
		{"targt.url", "x", `unknown key "targt" at the top level (valid keys: version, name, vars, target, load, repeat, seed, equivalence, max_errors, exclude_flagged, order, cooldown, metrics, quiet, server, accelerator, variants, baseline, speed, thresholds, ssh_options, binaries)`},
		{"target.tls.cipher", "x", `unknown key "cipher" in target.tls (valid keys: min_version, max_version, ciphers, curves, resumption, verify, ca, server_name)`},
		{"load.groups[0].cpu", "1", `unknown key "cpu" in load.groups[0] (valid keys: cpus, threads, connections, rate, host)`},
		{"load.duration", "abc", `load.duration: want a duration such as 500ms, 10s or 1m30s, got "abc"`},
		{"load.groups[0].connections", "many", `load.groups[0].connections: want a whole number, got "many"`},
		{"target.tls.resumption", "yes", `target.tls.resumption: want true or false, got "yes"`},
		{"load.groups[3].cpus", "1", `load.groups has 1 entry; index 3 is out of range (use 1 to append one)`},
		{"load.duration.seconds", "1", `load.duration is a value, not a section; "seconds" does not apply`},
		{"repeat[0]", "1", `repeat is not a list; [0] does not apply`},
		{"load..duration", "1s", `field path "load..duration": empty key`},
		{"load.groups[x].cpus", "1", `field path "load.groups[x].cpus": want an index such as [0] after "groups"`},
		{"", "1", `empty field path`},
		{"load.duration", "[1s", `value is not valid YAML: line 1: did not find expected ',' or ']'`},
		{"max_errors", "lots", `max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got "lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(setBase))
			if err != nil {
				t.Fatal(err)
			}
			if got := errString(s.Set(tt.path, tt.value)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestSetValueErrorsPointAtSet checks that Compile locates a bad overridden
// value at the --set, and forgets the file positions of what it replaced.
func TestSetValueErrorsPointAtSet(t *testing.T) {
	s, err := Parse("t.yaml", []byte(setBase))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"load.duration", "-1s"}, {"load.groups", "[{cpus: 9}]"}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.Compile(smallHost)
	want := strings.Join([]string{
		"--set load.duration=-1s: load.duration: must be positive, got -1s",
		"--set load.groups=[{cpus: 9}]: load.groups[0].cpus: CPU 9 does not exist (this machine has 0-1)",
	}, "\n")
	if got := errString(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
