package scenarios

import (
	"bytes"
	"crypto/tls"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
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
			if _, err := s.Compile(bigHost); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func compileExample(t *testing.T, name string) *Plan {
	t.Helper()
	s, err := LoadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(bigHost)
	if err != nil {
		t.Fatal(err)
	}
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
		if !reflect.DeepEqual(g, Group{CPUs: want, Threads: 11, Connections: 200}) {
			t.Errorf("group %d = %+v, want CPUs %v, 11 threads, 200 connections", i, g, want)
		}
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"duration", p.Load.Duration, 60 * time.Second},
		{"warmup", p.Load.Warmup, 5 * time.Second},
		{"connection", p.Load.Connection, Close},
		{"repeat", p.Repeat, 3},
		{"addr", p.Target.Addr, "10.0.0.2:443"},
		{"request", string(p.Target.Request), "GET /index.html HTTP/1.1\r\nHost: 10.0.0.2:443\r\nConnection: Close\r\n\r\n"},
		{"versions", [2]uint16{p.Target.TLS.MinVersion, p.Target.TLS.MaxVersion}, [2]uint16{tls.VersionTLS12, tls.VersionTLS12}},
		{"suites", p.Target.TLS.CipherSuites, []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}},
		{"resumption", p.Target.TLS.Resumption, false},
		{"variants", p.Variants, []Variant{{Name: "baseline"}, {Name: "kae", Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf"}}}},
		{"baseline", p.Baseline, "baseline"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

// TestExampleQuickstart checks the quick start runs the built-in target.
func TestExampleQuickstart(t *testing.T) {
	p := compileExample(t, "quickstart.yaml")
	want := Load{Connection: Close, Warmup: time.Second, Duration: 3 * time.Second, Timeout: DefaultTimeout,
		Groups: []Group{{Threads: 128, Connections: 8}}}
	if !reflect.DeepEqual(p.Load, want) {
		t.Errorf("load = %+v, want %+v", p.Load, want)
	}
	if got, want := *p.Target.Builtin, (Builtin{Cert: "rsa2048"}); got != want {
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
			compileExample(t, name+".yaml").Describe(&buf)
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
