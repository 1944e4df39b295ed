package scenarios

import (
	"crypto/tls"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// cpus returns the set lo..hi.
func cpus(lo, hi int) pinning.Set {
	var s pinning.Set
	for c := lo; c <= hi; c++ {
		s = append(s, c)
	}
	return s
}

// eightCPUs is the fake host the good scenarios compile for.
var eightCPUs = Host{CPUs: cpus(0, 7)}

func mustCompile(t *testing.T, yaml string, h Host) *plans.Plan {
	t.Helper()
	s, err := Parse("t.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	p, err := s.Compile(h)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	mustCheck(t, p)
	return p
}

func defaultTLS(serverName string) *plans.TLS {
	return &plans.TLS{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS13,
		Curves: []uint16{uint16(tls.X25519), uint16(tls.CurveP256)}, ServerName: serverName}
}

func defaultLoad(groups ...plans.Group) plans.Load {
	if groups == nil {
		groups = []plans.Group{{Threads: 8, Connections: 16}}
	}
	return plans.Load{Connection: plans.Close, Warmup: time.Second, Duration: 10 * time.Second, Timeout: 10 * time.Second, Interval: time.Second, Groups: groups}
}

var defaultVariants = []plans.Variant{{Name: "default"}}

// localServer is the default server control for a target at addr, of
// a server started with nginx (which records plans.NginxInfo).
func localServer(addr string) *plans.Server {
	return &plans.Server{Host: "local", CommandTimeout: DefaultCommandTimeout,
		Ready: plans.Ready{Kind: "tcp", Addr: addr, Interval: DefaultReadyInterval, Timeout: DefaultReadyTimeout}, Info: plans.NginxInfo}
}

// TestCompileGood compiles good scenarios and compares the whole Plan.
func TestCompileGood(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want plans.Plan
	}{{
		name: "minimal URL gets every default",
		yaml: "target: {url: https://127.0.0.1:8443/}\n",
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("127.0.0.1")},
			Load: defaultLoad()},
	}, {
		name: "builtin target has no address yet and talks to localhost",
		yaml: "name: qs\ntarget:\n  builtin: {cert: ecdsa-p256}\n",
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "qs", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{Builtin: &plans.Builtin{Cert: "ecdsa-p256"}, Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("localhost")},
			Load: defaultLoad()},
	}, {
		name: "builtin cert defaults to rsa2048",
		yaml: "target: {builtin: {}}\n",
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{Builtin: &plans.Builtin{Cert: "rsa2048"}, Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("localhost")},
			Load: defaultLoad()},
	}, {
		name: "http keep-alive POST with headers, query and default port",
		yaml: `
target:
  url: http://example.test/api/v1?q=1&r=a%20b
  method: POST
  headers: {X-Trace: abc, Accept: "*/*"}
  body: '{"k":1}'
load: {connection: keep-alive, duration: 1m30s, warmup: 0, timeout: 250ms, interval: 250ms}
repeat: 5
max_errors: 0.5%
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: 0.005, Repeat: 5, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "http://example.test/api/v1?q=1&r=a%20b", Addr: "example.test:80", Method: "POST",
				Request: []byte("POST /api/v1?q=1&r=a%20b HTTP/1.1\r\nHost: example.test\r\nX-Trace: abc\r\nAccept: */*\r\n" +
					"Connection: keep-alive\r\nContent-Length: 7\r\n\r\n{\"k\":1}")},
			Load: plans.Load{Connection: plans.KeepAlive, Warmup: 0, Duration: 90 * time.Second, Timeout: 250 * time.Millisecond, Interval: 250 * time.Millisecond,
				Groups: []plans.Group{{Threads: 8, Connections: 16}}}},
	}, {
		name: "user's Connection: Close header and Host override are kept in place",
		yaml: `
target:
  url: https://[::1]:8443/index.html
  headers: {Host: www.test, Connection: Close}
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "https://[::1]:8443/index.html", Addr: "[::1]:8443", Method: "GET",
				Request: []byte("GET /index.html HTTP/1.1\r\nHost: www.test\r\nConnection: Close\r\n\r\n"),
				TLS:     defaultTLS("::1")},
			Load: defaultLoad()},
	}, {
		name: "TLS settings resolve to crypto/tls constants",
		yaml: `
target:
  url: https://nginx.test/
  tls:
    min_version: TLSv1.2
    max_version: "1.2"
    ciphers: [ECDHE-RSA-AES128-GCM-SHA256, tls_ecdhe_ecdsa_with_aes_256_gcm_sha384]
    curves: [P-384, secp521r1, X25519MLKEM768, X25519]
    resumption: true
    server_name: origin.test
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "https://nginx.test/", Addr: "nginx.test:443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: nginx.test\r\nConnection: close\r\n\r\n"),
				TLS: &plans.TLS{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS12,
					CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384},
					Curves:       []uint16{uint16(tls.CurveP384), uint16(tls.CurveP521), uint16(tls.X25519MLKEM768), uint16(tls.X25519)},
					Resumption:   true, ServerName: "origin.test"}},
			Load: defaultLoad()},
	}, {
		name: "explicit groups: thread defaults, unpinned group, overlap and time-share warnings",
		yaml: `
target: {url: https://127.0.0.1:8443/}
load:
  groups:
    - {cpus: "0-3", connections: 100}
    - {cpus: "4,6", threads: 3}
    - {connections: 2}
    - {cpus: "3-4"}
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("127.0.0.1")},
			Load: defaultLoad(
				plans.Group{CPUs: []int{0, 1, 2, 3}, Threads: 4, Connections: 100},
				plans.Group{CPUs: []int{4, 6}, Threads: 3, Connections: 16},
				plans.Group{Threads: 8, Connections: 2},
				plans.Group{CPUs: []int{3, 4}, Threads: 2, Connections: 16}),
			Warnings: []string{
				"t.yaml:6:30: load.groups[1].threads: 3 threads on 2 CPUs: the extra threads time-share the group's CPUs",
				"t.yaml:8:14: load.groups[3].cpus: CPU 3-4 also in load.groups[0], load.groups[1]: overlapping groups compete for those CPUs",
			}},
	}, {
		name: "layout expands to consecutive groups",
		yaml: `
target: {url: https://127.0.0.1:8443/}
load:
  layout: {groups: 3, cpus_per_group: 2, first_cpu: 2, connections: 50}
server: {start: nginx -c /etc/nginx/nginx.conf, stop: nginx -s quit}
variants:
  - name: stock
  - name: kae
    env: {OPENSSL_CONF: /home/openssl.cnf, KAE_GO_SOFT_RATIO: "33"}
baseline: kae
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Baseline: "kae",
			Server: localServer("127.0.0.1:8443"),
			Variants: []plans.Variant{{Name: "stock", Start: "nginx -c /etc/nginx/nginx.conf", Stop: "nginx -s quit"},
				{Name: "kae", Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "33"},
					Start: "nginx -c /etc/nginx/nginx.conf", Stop: "nginx -s quit"}},
			Target: plans.Target{URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("127.0.0.1")},
			Load: defaultLoad(
				plans.Group{CPUs: []int{2, 3}, Threads: 2, Connections: 50},
				plans.Group{CPUs: []int{4, 5}, Threads: 2, Connections: 50},
				plans.Group{CPUs: []int{6, 7}, Threads: 2, Connections: 50})},
	}, {
		name: "TLS 1.3 suite names are accepted with a warning and restrict nothing",
		yaml: `
target:
  url: https://127.0.0.1:8443/
  tls: {ciphers: [TLS_AES_128_GCM_SHA256], curves: [X25519MLKEM768, X25519]}
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Variants: defaultVariants, Baseline: "default",
			Target: plans.Target{URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"),
				TLS: &plans.TLS{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS13,
					Curves: []uint16{uint16(tls.X25519MLKEM768), uint16(tls.X25519)}, ServerName: "127.0.0.1"}},
			Load: defaultLoad(),
			Warnings: []string{"t.yaml:4:9: target.tls.ciphers: Go's crypto/tls always offers all three TLS 1.3 suites " +
				"(TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256), so listing TLS 1.3 suites " +
				"restricts nothing; TLS 1.2 handshakes use Go's default suites"}},
	}, {
		name: "anchors and merge keys share env between variants",
		yaml: `
target: {url: https://127.0.0.1:8443/}
server: {start: nginx}
variants:
  - name: kae
    env: &kae {OPENSSL_CONF: /home/openssl.cnf}
  - name: kae-soft
    env: {<<: *kae, KAE_GO_SOFT_RATIO: "33"}
`,
		want: plans.Plan{Order: results.OrderRandomized, Equivalence: results.DefaultEquivalence, Name: "t", Source: "t.yaml", MaxErrors: DefaultMaxErrors, Repeat: 1, Baseline: "kae",
			Server: localServer("127.0.0.1:8443"),
			Variants: []plans.Variant{{Name: "kae", Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf"}, Start: "nginx"},
				{Name: "kae-soft", Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "33"}, Start: "nginx"}},
			Target: plans.Target{URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
				Request: []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nConnection: close\r\n\r\n"),
				TLS:     defaultTLS("127.0.0.1")},
			Load: defaultLoad()},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustCompile(t, tt.yaml, eightCPUs)
			if string(got.Target.Request) != string(tt.want.Target.Request) {
				t.Errorf("request:\ngot  %q\nwant %q", got.Target.Request, tt.want.Target.Request)
			}
			if !reflect.DeepEqual(got, &tt.want) {
				g, _ := json.MarshalIndent(got, "", " ")
				w, _ := json.MarshalIndent(&tt.want, "", " ")
				t.Errorf("plan:\ngot  %s\nwant %s", g, w)
			}
		})
	}
}

// TestCompileUnpinnedThreadsFollowHost checks the default group's threads
// come from the Host, not from this machine.
func TestCompileUnpinnedThreadsFollowHost(t *testing.T) {
	for _, n := range []int{1, 3, 128} {
		p := mustCompile(t, "target: {url: https://127.0.0.1:8443/}\n", Host{CPUs: cpus(0, n-1)})
		if got, want := p.Load.Groups, []plans.Group{{Threads: n, Connections: 16}}; !reflect.DeepEqual(got, want) {
			t.Errorf("host with %d CPUs: groups %+v, want %+v", n, got, want)
		}
	}
}

// TestWithAddr checks the runner's hook for the built-in server's address.
func TestWithAddr(t *testing.T) {
	p := mustCompile(t, "target: {builtin: {cert: rsa2048}}\n", eightCPUs)
	q := p.WithAddr("127.0.0.1:40123")
	if got, want := q.Target.Addr, "127.0.0.1:40123"; got != want {
		t.Errorf("Addr = %q, want %q", got, want)
	}
	if got, want := q.Target.URL, "https://127.0.0.1:40123/"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got, want := q.Target.TLS.ServerName, "localhost"; got != want {
		t.Errorf("ServerName = %q, want %q", got, want)
	}
	if !strings.Contains(string(q.Target.Request), "\r\nHost: localhost\r\n") {
		t.Errorf("request %q lacks Host: localhost", q.Target.Request)
	}
	if p.Target.Addr != "" || p.Target.URL != "" {
		t.Errorf("WithAddr modified the original: Addr %q URL %q", p.Target.Addr, p.Target.URL)
	}
}

// TestCompileDoesNotModifyScenario compiles twice and gets the same plan.
func TestCompileDoesNotModifyScenario(t *testing.T) {
	s, err := Parse("t.yaml", []byte("target: {url: https://127.0.0.1:8443/}\nload: {layout: {groups: 2, cpus_per_group: 4}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Compile(eightCPUs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Compile(eightCPUs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("second compile differs:\n%+v\n%+v", a, b)
	}
}

// TestPlanJSONRoundTrip checks a Plan survives the worker pipe encoding.
func TestPlanJSONRoundTrip(t *testing.T) {
	p := mustCompile(t, "target: {url: 'https://127.0.0.1:8443/', tls: {ciphers: [AES128-GCM-SHA256]}}\nload: {groups: [{cpus: 0-1}]}\n", eightCPUs)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q plans.Plan
	if err := json.Unmarshal(b, &q); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, &q) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", &q, p)
	}
	if !slices.Equal(q.Target.TLS.CipherSuites, []uint16{tls.TLS_RSA_WITH_AES_128_GCM_SHA256}) {
		t.Errorf("cipher suites %v", q.Target.TLS.CipherSuites)
	}
}

// TestMaxErrors checks how max_errors is written: percentages and plain
// fractions below 1; a plain 1 or more, negatives and more than 100% are
// errors at the value's position.
func TestMaxErrors(t *testing.T) {
	tests := []struct {
		value string
		want  float64
		err   string
	}{
		{value: "1%", want: 0.01},
		{value: "0.5%", want: 0.005},
		{value: "'2 %'", want: 0.02},
		{value: "100%", want: 1},
		{value: "0%", want: 0},
		{value: "0", want: 0},
		{value: "0.01", want: 0.01},
		{value: "1e-3", want: 0.001},
		{value: `"0.25"`, want: 0.25},
		{value: "null", want: DefaultMaxErrors},
		{value: "1", err: "t.yaml:2:13: max_errors: 1 as a plain number would be a fraction of the whole (0.01 = 1%); write 1% for 1 percent, or 100% to tolerate any share"},
		{value: "5", err: "t.yaml:2:13: max_errors: 5 as a plain number would be a fraction of the whole (0.01 = 1%); write 5% for 5 percent, or 100% to tolerate any share"},
		{value: "-0.5%", err: "t.yaml:2:13: max_errors: must not be negative, got -0.5%"},
		{value: "-0.01", err: "t.yaml:2:13: max_errors: must not be negative, got -1%"},
		{value: "150%", err: "t.yaml:2:13: max_errors: 150% is more than 100% (the share of all requests that may fail)"},
		{value: "NaN%", err: `t.yaml:2:13: max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got "NaN%"`},
		{value: ".nan", err: `t.yaml:2:13: max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got ".nan"`},
		{value: "'%'", err: `t.yaml:2:13: max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got "%"`},
		{value: "[1%]", err: "t.yaml:2:13: max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got a list"},
		{value: "true", err: `t.yaml:2:13: max_errors: want a percentage such as 1% or 0.5%, or a fraction such as 0.01, got "true"`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			yaml := "target: {url: https://127.0.0.1:8443/}\nmax_errors: " + tt.value + "\n"
			s, err := Parse("t.yaml", []byte(yaml))
			var p *plans.Plan
			if err == nil {
				p, err = s.Compile(eightCPUs)
			}
			if got, want := errString(err), tt.err; tt.err != "" || err != nil {
				if got != want {
					t.Errorf("got error:\n%s\nwant:\n%s", got, want)
				}
				return
			}
			mustCheck(t, p)
			if got, want := p.MaxErrors, tt.want; got != want {
				t.Errorf("MaxErrors = %v, want %v", got, want)
			}
		})
	}
}

// TestServerInfo: a server started with nginx records nginx -V and
// openssl version with each variant unless server.info says otherwise;
// info: [] records nothing; another server records nothing by default.
func TestServerInfo(t *testing.T) {
	for _, tc := range []struct {
		server string
		want   []string
	}{
		{`{start: nginx -c /etc/nginx/nginx.conf, stop: nginx -s quit}`, plans.NginxInfo},
		{`{start: nginx, info: []}`, nil},
		{`{start: nginx, info: ["haproxy -vv"]}`, []string{"haproxy -vv"}},
		{`{start: haproxy -f /etc/haproxy.cfg}`, nil},
	} {
		p := mustCompile(t, "target: {url: \"https://10.0.0.2/\"}\nserver: "+tc.server+"\n", eightCPUs)
		if got := p.Server.Info; !slices.Equal(got, tc.want) {
			t.Errorf("server %s: info %q, want %q", tc.server, got, tc.want)
		}
	}
}
