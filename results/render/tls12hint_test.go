package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"strings"
	"testing"
)

// TestTLS12Hint: a variant whose every handshake negotiated TLS 1.2 while
// the plan offered TLS 1.3 gets the max_version hint, as a line in the
// text and Markdown reports; one TLS 1.3 handshake, or a plan that already
// offers TLS 1.2 only, gets none.
func TestTLS12Hint(t *testing.T) {
	rep := func(neg map[string]uint64) results.Rep {
		g := results.Group{Index: 0, CPUs: "1"}
		g.Requests, g.Handshakes, g.Negotiated = 100, 100, neg
		g.CPU = &results.CPUUsage{CPUs: "1", Seconds: 0.006, PerCPU: []results.CPUTime{{CPU: 1, Seconds: 0.006}}}
		g.Process = &results.CPUUsage{Seconds: 0.005} // 50 µs per request
		return results.NewRep(0, []results.Group{g})
	}
	tls12 := map[string]uint64{"TLS1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 X25519": 100}
	mixed := map[string]uint64{"TLS1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 X25519": 99, "TLS1.3 TLS_AES_128_GCM_SHA256 X25519": 1}
	run := func(plan string, reps ...results.Rep) *results.Run {
		return &results.Run{Name: "hint", Plan: []byte(plan), Variants: []results.Variant{{Name: "v", Reps: reps}}}
	}
	offers13 := `{"target":{"tls":{"min_version":771,"max_version":772}}}`
	only12 := `{"target":{"tls":{"min_version":771,"max_version":771}}}`
	for _, tc := range []struct {
		name string
		run  *results.Run
		want bool
	}{
		{"all TLS 1.2, TLS 1.3 offered", run(offers13, rep(tls12), rep(tls12)), true},
		{"one window had a TLS 1.3 handshake", run(offers13, rep(tls12), rep(mixed)), false},
		{"max_version already 1.2", run(only12, rep(tls12)), false},
		{"no handshakes", run(offers13, rep(nil)), false},
		{"no plan recorded", run("", rep(tls12)), false},
	} {
		hints := analysis.Hints(tc.run)
		if got := len(hints) > 0; got != tc.want {
			t.Errorf("%s: hints %q, want a hint %v", tc.name, hints, tc.want)
			continue
		}
		if !tc.want {
			continue
		}
		if h := hints[0].String(); !strings.Contains(h, `max_version: "1.2"`) || !strings.Contains(h, "client CPU per request") || !strings.Contains(h, "bench/peers.sh") {
			t.Errorf("%s: hint %q lacks the setting, the saving or where it is measured", tc.name, h)
		}
		var text, md bytes.Buffer
		if err := WriteText(&text, analysis.Analyze(tc.run)); err != nil {
			t.Fatal(err)
		}
		if err := WriteMarkdown(&md, analysis.Analyze(tc.run)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "HINT: variant v: every handshake negotiated TLS 1.2") {
			t.Errorf("%s: text report lacks the hint:\n%s", tc.name, text.String())
		}
		if !strings.Contains(md.String(), "**HINT:** variant v: every handshake negotiated TLS 1.2") {
			t.Errorf("%s: Markdown report lacks the hint:\n%s", tc.name, md.String())
		}
	}
}
