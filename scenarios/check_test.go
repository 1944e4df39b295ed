package scenarios

import (
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// mustCheck fails the test unless p passes Check and, for every group,
// CheckWorker (a built-in target once it has an address): Compile's
// output must always pass both.
func mustCheck(t *testing.T, p *plans.Plan) {
	t.Helper()
	if err := p.Check(); err != nil {
		t.Fatalf("compiled plan fails Check:\n%v", err)
	}
	q := p
	if p.Target.Builtin != nil {
		q = p.WithAddr("127.0.0.1:40123")
	}
	for i, g := range q.Load.Groups {
		if err := plans.CheckWorker(q.Target, q.Load, g); err != nil {
			t.Fatalf("group %d fails CheckWorker:\n%v", i, err)
		}
	}
}

const checkBase = `target: {url: https://127.0.0.1:8443/}
server: {start: nginx}
load: {groups: [{cpus: 0-1, connections: 10}, {cpus: 2-3}]}
variants: [{name: a}, {name: b}]
speed: [{command: openssl speed rsa2048}]
`

// TestCheck breaks one invariant of a compiled plan at a time and checks
// that Check names it, and only it.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *plans.Plan)
		want string
	}{
		{"compiled", func(p *plans.Plan) {}, "<nil>"},
		{"hand-built defaults", func(p *plans.Plan) { p.Order, p.Baseline = "", "" }, "<nil>"},
		{"no groups", func(p *plans.Plan) { p.Load.Groups = nil }, "load.groups: no groups"},
		{"too many groups", func(p *plans.Plan) { p.Load.Groups = make([]plans.Group, plans.MaxGroups+1) },
			"load.groups: 1025 groups, more than the 1024 allowed (each group is one pinned worker process)"},
		{"absurd connections", func(p *plans.Plan) { p.Load.Groups[1].Connections = 1_000_000_000 },
			"load.groups[1].connections: 1000000000 is more than the 65535 allowed (each connection needs its own source port towards the target and an open file)"},
		{"too many in all", func(p *plans.Plan) { p.Load.Groups[0].Connections, p.Load.Groups[1].Connections = 40000, 40000 },
			"load.groups: 80000 connections in all groups, more than the 65535 allowed (all groups dial the target from this machine, whose source address has at most 65535 ports towards it)"},
		{"zero threads", func(p *plans.Plan) { p.Load.Groups[0].Threads = 0 }, "load.groups[0].threads: must be at least 1, got 0"},
		{"bad CPUs", func(p *plans.Plan) { p.Load.Groups[0].CPUs = []int{1, 1} }, "load.groups[0].cpus: not sorted without repeats (1 after 1)"},
		{"negative CPU", func(p *plans.Plan) { p.Load.Groups[0].CPUs = []int{-1} }, "load.groups[0].cpus: CPU -1 is out of range (0 to 65535)"},
		{"century window", func(p *plans.Plan) { p.Load.Duration = 100 * 365 * 24 * time.Hour },
			"load.duration: 876000h is more than the 24h allowed (one measured window; use repeat for more windows)"},
		{"no window", func(p *plans.Plan) { p.Load.Duration = 0 }, "load.duration: must be positive, got 0s"},
		{"negative warmup", func(p *plans.Plan) { p.Load.Warmup = -time.Second }, "load.warmup: must not be negative, got -1s"},
		{"long timeout", func(p *plans.Plan) { p.Load.Timeout = time.Hour },
			"load.timeout: 1h is more than the 10m allowed (one request; a request that takes longer has failed)"},
		{"connection mode", func(p *plans.Plan) { p.Load.Connection = "" }, `load.connection: "", want close or keep-alive`},
		{"repeat", func(p *plans.Plan) { p.Repeat = 0 }, "repeat: must be at least 1, got 0"},
		{"cooldown", func(p *plans.Plan) { p.Cooldown = 2 * time.Hour },
			"cooldown: 2h is more than the 1h allowed (a pause between measured windows)"},
		{"order", func(p *plans.Plan) { p.Order = "random" }, `order: "random", want randomized, interleaved or sequential`},
		{"no variants", func(p *plans.Plan) { p.Variants = nil }, "variants: no variants"},
		{"duplicate variant", func(p *plans.Plan) { p.Variants[1].Name = "a" }, `variants[1].name: "a" already names variants[0]`},
		{"slash in name", func(p *plans.Plan) { p.Variants[1].Name = "a/b" },
			`variants[1].name: "a/b" is not a usable name (want non-empty text without slashes or control characters)`},
		{"env", func(p *plans.Plan) { p.Variants[0].Env = map[string]string{"A=B": "x"} },
			`variants[0].env.A=B: "A=B" is not a valid environment variable (no '=' or NUL)`},
		{"secret key", func(p *plans.Plan) { p.Variants[0].SecretEnv = []string{"TOKEN"} }, `variants[0].secret_env: "TOKEN" is not in env`},
		{"no start", func(p *plans.Plan) { p.Variants[1].Start = "" },
			"variants[1].start: empty (a plan with a server needs a start command for every variant)"},
		{"speed", func(p *plans.Plan) { p.Variants[0].Speed[0].Timeout = 0 }, "variants[0].speed[0].timeout: must be positive, got 0s"},
		{"baseline", func(p *plans.Plan) { p.Baseline = "c" }, `baseline: "c" names no variant`},
		{"accelerator", func(p *plans.Plan) { p.Accelerator = &plans.Accelerator{Capacity: -1} },
			"accelerator.capacity: -1, want a positive number of signatures per second"},
		{"server", func(p *plans.Plan) { p.Server.Host, p.Server.Ready.Kind = "ssh://x", "udp" },
			"server.host: \"ssh://x\", want local or the name of server.ssh\nserver.ready.kind: \"udp\", want tcp, tls or https"},
		{"ready timeout", func(p *plans.Plan) { p.Server.Ready.Timeout = 48 * time.Hour },
			"server.ready.timeout: 48h is more than the 24h allowed (a command or wait that takes longer has hung)"},
		{"no address", func(p *plans.Plan) { p.Target.Addr = "" }, "target.addr: empty (want the host:port to dial)"},
		{"bad address", func(p *plans.Plan) { p.Target.Addr = "127.0.0.1:0" }, `target.addr: "127.0.0.1:0" is not host:port with a port from 1 to 65535`},
		{"no request", func(p *plans.Plan) { p.Target.Request = nil }, "target.request: empty (want the HTTP/1.1 request to send)"},
		{"TLS", func(p *plans.Plan) {
			p.Target.TLS.MinVersion, p.Target.TLS.Curves, p.Target.TLS.CipherSuites = tls.VersionTLS10, []uint16{7}, []uint16{tls.TLS_AES_128_GCM_SHA256}
		}, "target.tls.min_version: 0x0301, want 1.2 (0x0303) or 1.3 (0x0304)\n" +
			"target.tls.cipher_suites[0]: 0x1301 is not a TLS 1.2 suite Go implements\n" +
			"target.tls.curves[0]: 7 is not a curve Go implements"},
		{"versions", func(p *plans.Plan) {
			p.Target.TLS.MinVersion, p.Target.TLS.MaxVersion = tls.VersionTLS13, tls.VersionTLS12
		},
			"target.tls.min_version: 1.3 is above max_version 1.2"},
		{"name", func(p *plans.Plan) { p.Name = "" }, `name: "" is not a usable name (want non-empty text without slashes or control characters)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, checkBase, eightCPUs)
			tt.edit(p)
			if got, want := errString(p.Check()), tt.want; got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	if got, want := errString((*plans.Plan)(nil).Check()), "nil plan"; got != want {
		t.Errorf("nil plan: got %q, want %q", got, want)
	}
}

// TestCheckWorker checks a worker's spec: every problem at once, and no
// huge allocation for absurd counts.
func TestCheckWorker(t *testing.T) {
	p := mustCompile(t, checkBase, eightCPUs)
	good := func() (plans.Target, plans.Load, plans.Group) { return p.Target, p.Load, p.Load.Groups[0] }
	tests := []struct {
		name string
		edit func(*plans.Target, *plans.Load, *plans.Group)
		want string
	}{
		{"good", func(*plans.Target, *plans.Load, *plans.Group) {}, "<nil>"},
		{"groups of the load are not looked at", func(_ *plans.Target, l *plans.Load, _ *plans.Group) { l.Groups = nil }, "<nil>"},
		{"everything wrong", func(tg *plans.Target, l *plans.Load, g *plans.Group) {
			*tg = plans.Target{TLS: &plans.TLS{}}
			*l = plans.Load{Connection: "sometimes", Warmup: -1, Duration: 25 * time.Hour}
			*g = plans.Group{Threads: plans.MaxThreads + 1, Connections: 1 << 30, CPUs: []int{3, 2}}
		}, strings.Join([]string{
			"target.addr: empty (want the host:port to dial)",
			"target.request: empty (want the HTTP/1.1 request to send)",
			"target.tls.min_version: 0x0000, want 1.2 (0x0303) or 1.3 (0x0304)",
			"target.tls.max_version: 0x0000, want 1.2 (0x0303) or 1.3 (0x0304)",
			`load.connection: "sometimes", want close or keep-alive`,
			"load.duration: 25h is more than the 24h allowed (one measured window; use repeat for more windows)",
			"load.warmup: must not be negative, got -1ns",
			"load.timeout: must be positive, got 0s",
			"group.threads: 4097 is more than the 4096 allowed (threads are the worker's GOMAXPROCS; beyond its CPUs they only time-share)",
			"group.connections: 1073741824 is more than the 65535 allowed (each connection needs its own source port towards the target and an open file)",
			"group.cpus: not sorted without repeats (2 after 3)",
		}, "\n")},
		{"no headers end", func(tg *plans.Target, _ *plans.Load, _ *plans.Group) { tg.Request = []byte("GET / HTTP/1.1\r\n") },
			"target.request: no end of headers (CR LF CR LF)"},
		{"verify without name", func(tg *plans.Target, _ *plans.Load, _ *plans.Group) {
			c := *tg.TLS
			c.Verify, c.ServerName = true, ""
			tg.TLS = &c
		}, "target.tls.server_name: verify needs a server name to check the certificate against"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg, l, g := good()
			tt.edit(&tg, &l, &g)
			if got, want := errString(plans.CheckWorker(tg, l, g)), tt.want; got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestCheckPlanningHost checks that a --dry-run plan for a bigger machine
// (CPUs missing here are warnings) still passes Check, and that default
// threads stay within MaxThreads on a huge host.
func TestCheckPlanningHost(t *testing.T) {
	small := Host{CPUs: pinning.Set{0, 1}, Planning: true}
	p := mustCompile(t, "target: {url: https://127.0.0.1/}\nload: {layout: {groups: 11, cpus_per_group: 10}}\n", small)
	if got, want := len(p.Warnings), 1; got != want {
		t.Errorf("%d warnings (%q), want %d", got, p.Warnings, want)
	}
	p = mustCompile(t, "target: {url: https://127.0.0.1/}\nload: {groups: [{cpus: 0-9999}]}\n", Host{CPUs: cpus(0, 9999)})
	if got, want := p.Load.Groups[0].Threads, plans.MaxThreads; got != want {
		t.Errorf("threads of a 10000-CPU group = %d, want %d", got, want)
	}
	p = mustCompile(t, "target: {url: https://127.0.0.1/}\n", Host{CPUs: cpus(0, 9999)})
	if got, want := p.Load.Groups[0].Threads, plans.MaxThreads; got != want {
		t.Errorf("threads of an unpinned group on 10000 CPUs = %d, want %d", got, want)
	}
}
