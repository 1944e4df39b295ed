package scenarios

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"flag"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

var update = flag.Bool("update", false, "rewrite golden files")

// bigHost is large enough for every example (CPUs 0-127).
var bigHost = Host{CPUs: cpus(0, 127)}

// TestExamplesCompile loads and compiles every examples/*.yaml.
func TestExamplesCompile(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found %d examples, want at least 2", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := LoadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Compile(bigHost)
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, p)
		})
	}
}

func compileExample(t *testing.T, name string) *plans.Plan {
	t.Helper()
	s, err := LoadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(bigHost)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, p)
	return p
}

// TestExampleNginxKAE checks the Kunpeng layout example resolves to the
// manual procedure: 11 × taskset 10 CPUs, wrk -t 11 -c 200 -d 60.
func TestExampleNginxKAE(t *testing.T) {
	p := compileExample(t, "nginx-kae.yaml")
	if got, want := len(p.Load.Groups), 11; got != want {
		t.Fatalf("%d groups, want %d", got, want)
	}
	for i, g := range p.Load.Groups {
		var want []int
		for c := i * 10; c < i*10+10; c++ {
			want = append(want, c)
		}
		if !reflect.DeepEqual(g, plans.Group{CPUs: want, Threads: 11, Connections: 200}) {
			t.Errorf("group %d = %+v, want CPUs %v, 11 threads, 200 connections", i, g, want)
		}
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"duration", p.Load.Duration, 60 * time.Second},
		{"warmup", p.Load.Warmup, 5 * time.Second},
		{"connection", p.Load.Connection, plans.Close},
		{"repeat", p.Repeat, 3},
		{"addr", p.Target.Addr, "10.0.0.2:443"},
		{"request", string(p.Target.Request), "GET /index.html HTTP/1.1\r\nHost: 10.0.0.2:443\r\nConnection: Close\r\n\r\n"},
		{"versions", [2]uint16{p.Target.TLS.MinVersion, p.Target.TLS.MaxVersion}, [2]uint16{tls.VersionTLS12, tls.VersionTLS12}},
		{"suites", p.Target.TLS.CipherSuites, []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}},
		{"resumption", p.Target.TLS.Resumption, false},
		{"variant names", names(p.Variants), []string{"baseline", "kae", "kae-soft-0", "kae-soft-10", "kae-soft-20",
			"kae-soft-33", "kae-soft-50", "kae-soft-70", "kae-soft-100"}},
		{"baseline env", p.Variants[0].Env, map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib"}},
		{"kae env", p.Variants[1].Env, map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "OPENSSL_CONF": "/home/openssl.cnf"}},
		{"kae-soft-33 env", p.Variants[5].Env, map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib",
			"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "33"}},
		{"kae-soft-33 series", [2]any{p.Variants[5].Series, p.Variants[5].Sweep}, [2]any{"kae-soft-{ratio}", map[string]string{"ratio": "33"}}},
		{"start", p.Variants[8].Start, "/usr/local/nginx/sbin/nginx -c /usr/local/nginx/conf/nginx.conf"},
		{"stop", p.Variants[8].Stop, "/usr/local/nginx/sbin/nginx -c /usr/local/nginx/conf/nginx.conf -s quit"},
		{"probes", p.Variants[0].Probes, []plans.Probe{{Name: "hpre_send", Command: "cat /sys/kernel/debug/hisi_hpre/0000:79:00.0/hpre_dfx/send_cnt"}}},
		{"server", *p.Server, plans.Server{Host: "local", CommandTimeout: time.Minute,
			Ready: plans.Ready{Kind: "tcp", Addr: "10.0.0.2:443", Interval: 200 * time.Millisecond, Timeout: 30 * time.Second}, Info: plans.NginxInfo}},
		{"order", [2]any{p.Order, p.Cooldown}, [2]any{results.OrderRandomized, 2 * time.Second}},
		{"equivalence", p.Equivalence, 0.02},
		{"baseline", p.Baseline, "baseline"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

// names lists the variants' names.
func names(vs []plans.Variant) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return out
}

// TestExampleQuickstart checks the quick start runs the built-in target.
func TestExampleQuickstart(t *testing.T) {
	p := compileExample(t, "quickstart.yaml")
	want := plans.Load{Connection: plans.Close, Warmup: time.Second, Duration: 3 * time.Second, Timeout: DefaultTimeout, Interval: 500 * time.Millisecond,
		Groups: []plans.Group{{Threads: 128, Connections: 8}}}
	if !reflect.DeepEqual(p.Load, want) {
		t.Errorf("load = %+v, want %+v", p.Load, want)
	}
	if got, want := *p.Target.Builtin, (plans.Builtin{Cert: "rsa2048"}); got != want {
		t.Errorf("builtin = %+v, want %+v", got, want)
	}
	if p.Target.Addr != "" || p.Repeat != 1 || len(p.Warnings) != 0 {
		t.Errorf("addr %q repeat %d warnings %q, want \"\" 1 none", p.Target.Addr, p.Repeat, p.Warnings)
	}
}

// TestDescribeGolden compares Describe's output for the examples with
// testdata/describe/*.txt (refresh with go test -update).
func TestDescribeGolden(t *testing.T) {
	for _, name := range []string{"nginx-kae", "quickstart"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			Describe(&buf, compileExample(t, name+".yaml"))
			golden := filepath.Join("testdata", "describe", name+".txt")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestLocalNginxExampleRuns runs examples/local-nginx.yaml's server
// commands for real (nginx on loopback, a free port via --set vars.port):
// every variant's start brings up nginx serving that variant's certificate
// with the variant's env, a full handshake is logged with no session
// reuse in the variant's access log, and stop leaves no nginx behind.
func TestLocalNginxExampleRuns(t *testing.T) {
	if _, err := exec.LookPath("nginx"); err != nil {
		if _, err := os.Stat("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx is not installed")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s, err := LoadFile("../examples/local-nginx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run := t.TempDir()
	for _, kv := range [][2]string{{"vars.port", strconv.Itoa(port)}, {"vars.run", run}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Compile(bigHost)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, p)
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		nginx = "/usr/sbin/nginx"
	}
	wrapper := filepath.Join(t.TempDir(), "nginx")
	script := "#!/bin/sh\n{ echo; env; } >" + filepath.Join(run, "env") + "\nexec " + nginx + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	sh := func(command string, env map[string]string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		cmd.WaitDelay = 2 * time.Second // a daemon that kept our pipes must not hang the test
		cmd.Env = append(os.Environ(), "NGINX_BIN="+wrapper)
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", command, err, out)
		}
	}
	wantKeys := map[string]string{"rsa2048": "RSA 2048", "rsa4096": "RSA 4096", "ecdsa-p256": "ECDSA P-256", "rsa2048-noasm": "RSA 2048"}
	for _, v := range p.Variants {
		t.Run(v.Name, func(t *testing.T) {
			sh(v.Start, v.Env)
			defer func() {
				sh(v.Stop, v.Env)
				if _, err := net.DialTimeout("tcp", p.Target.Addr, time.Second); err == nil {
					t.Errorf("nginx still accepts connections after stop")
				}
			}()
			// nginx overwrites its /proc environ with its process title, so
			// the wrapper records the environment nginx was started with.
			environ, err := os.ReadFile(filepath.Join(run, "env"))
			if err != nil {
				t.Fatal(err)
			}
			for k, val := range v.Env {
				if !bytes.Contains(environ, []byte("\n"+k+"="+val+"\n")) {
					t.Errorf("nginx was started without %s=%s", k, val)
				}
			}
			conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", p.Target.Addr, &tls.Config{InsecureSkipVerify: true})
			if err != nil {
				t.Fatal(err)
			}
			cert := conn.ConnectionState().PeerCertificates[0]
			var got string
			switch k := cert.PublicKey.(type) {
			case *rsa.PublicKey:
				got = "RSA " + strconv.Itoa(k.N.BitLen())
			case *ecdsa.PublicKey:
				got = "ECDSA " + k.Curve.Params().Name
			}
			if want := wantKeys[v.Name]; got != want {
				t.Errorf("served a %s key, want %s", got, want)
			}
			conn.Write(p.Target.Request)
			reply, _ := io.ReadAll(conn)
			conn.Close()
			if !bytes.Contains(reply, []byte("200 OK")) {
				t.Errorf("reply %q, want 200 OK", reply)
			}
			log, err := os.ReadFile(filepath.Join(run, "access-"+v.Name+".log"))
			if err != nil {
				t.Fatal(err)
			}
			// $msec $status $ssl_session_reused $ssl_protocol ...: a full handshake is ".".
			if f := strings.Fields(string(log)); len(f) < 4 || f[1] != "200" || f[2] != "." || !strings.HasPrefix(f[3], "TLSv1.") {
				t.Errorf("access log %q, want a 200 with no session reused", log)
			}
		})
	}
}
