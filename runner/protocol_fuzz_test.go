package runner

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// validSpec is a spec line Compile could have produced.
func validSpec(t testing.TB) []byte {
	t.Helper()
	spec := wire.Spec{
		Type:  wire.TypeSpec,
		Group: 0,
		Target: plans.Target{
			URL: "https://127.0.0.1:8443/", Addr: "127.0.0.1:8443", Method: "GET",
			Request: closeRequest("/"),
			TLS: &plans.TLS{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS13,
				Curves: []uint16{uint16(tls.X25519)}},
		},
		Load:      plans.Load{Connection: plans.Close, Duration: time.Second, Timeout: time.Second},
		GroupSpec: plans.Group{CPUs: []int{0}, Threads: 1, Connections: 4},
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestReadSpecRejects checks that absurd or malformed specs are errors
// that say what is wrong, before the worker allocates anything.
func TestReadSpecRejects(t *testing.T) {
	good := validSpec(t)
	if _, err := readSpec(wire.NewReader(bytes.NewReader(good))); err != nil {
		t.Fatalf("valid spec rejected: %v", err)
	}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return append(b, '\n')
	}
	for _, tc := range []struct {
		name, want string
		line       []byte
	}{
		{"10^9 connections", "connections", edit(func(m map[string]any) { m["group_spec"].(map[string]any)["connections"] = 1e9 })},
		{"no threads", "threads", edit(func(m map[string]any) { m["group_spec"].(map[string]any)["threads"] = 0 })},
		{"century window", "duration", edit(func(m map[string]any) { m["load"].(map[string]any)["duration"] = 100 * 365 * 24 * 3600 * 1e9 })},
		{"no address", "addr", edit(func(m map[string]any) { m["target"].(map[string]any)["addr"] = "" })},
		{"1 ns intervals", "load.interval", edit(func(m map[string]any) { m["load"].(map[string]any)["interval"] = 1 })},
		{"wrong type", "bad \"spec\" message", edit(func(m map[string]any) { m["group"] = "zero" })},
		{"not json", "not a protocol message", []byte("spec please\n")},
		{"start first", "want a \"spec\" message first", []byte(`{"type":"start"}` + "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readSpec(wire.NewReader(bytes.NewReader(tc.line)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readSpec = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

// FuzzWorkerSpec feeds arbitrary controller input to the worker's first
// two phases: anything malformed must be an error, never a panic, and a
// spec that is accepted must be one Compile's limits allow.
func FuzzWorkerSpec(f *testing.F) {
	good := validSpec(f)
	f.Add(good)
	f.Add(append(bytes.Clone(good), []byte(`{"type":"start","warmup_end":"2026-01-02T15:04:05Z","end":"2026-01-02T15:04:06Z"}`+"\n")...))
	f.Add(bytes.Replace(good, []byte(`"connections":4`), []byte(`"connections":1000000000`), 1))
	f.Add(bytes.Replace(good, []byte(`"threads":1`), []byte(`"threads":-1`), 1))
	f.Add([]byte(`{"type":"spec","group":0,"target":null,"load":null,"group_spec":null}` + "\n"))
	f.Add([]byte("{\"type\":\"spec\"\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		lr := wire.NewReader(bytes.NewReader(in))
		spec, err := readSpec(lr)
		if err != nil {
			return
		}
		g := spec.GroupSpec
		if g.Connections < 1 || g.Connections > plans.MaxConnections || g.Threads < 1 {
			t.Fatalf("accepted a spec with %d connections and %d threads", g.Connections, g.Threads)
		}
		if _, win, err := awaitStart(lr, io.Discard); err == nil && (win.Length() <= 0 || win.Length() > plans.MaxDuration) {
			t.Fatalf("accepted a window of %s", win.Length())
		}
	})
}
