package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/accel"
)

// TestBuiltinAccel: target.builtin.accel takes serve --accel's keys over
// the defaults, makes the certificate ECDSA unless named, and lets
// variants set env and sweep without a server section.
func TestBuiltinAccel(t *testing.T) {
	p := mustCompile(t, `target:
  builtin:
    accel: {capacity: 900/s, latency: 1ms, engines: 2, mode: sync}
variants:
  - name: no-kae
    env: {KAELOAD_ACCEL: "off"}
  - name: kae-{ratio}
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    sweep: {ratio: [0, 50]}
`, eightCPUs)
	want := accel.Defaults()
	want.Capacity, want.Latency, want.Engines, want.Mode = 900, time.Millisecond, 2, "sync"
	if b := p.Target.Builtin; b.Cert != "ecdsa-p256" || b.Accel == nil || *b.Accel != want {
		t.Errorf("builtin %+v (accel %+v), want ecdsa-p256 with %+v", b, b.Accel, want)
	}
	if got := p.Variants[2].Env["KAE_GO_SOFT_RATIO"]; got != "50" || p.Variants[0].Env["KAELOAD_ACCEL"] != "off" {
		t.Errorf("variants' env: %+v", p.Variants)
	}
	if p := mustCompile(t, "target: {builtin: {cert: rsa2048, accel: {}}}\n", eightCPUs); p.Target.Builtin.Cert != "rsa2048" || *p.Target.Builtin.Accel != accel.Defaults() {
		t.Errorf("accel {} with rsa2048: %+v", p.Target.Builtin)
	}
	for yaml, wantErr := range map[string]string{
		"target:\n  builtin:\n    accel: {capacity: 600/s, latency: 2}\n": `t.yaml:3:39: target.builtin.accel.latency: accel: latency="2": want a duration`,
		"target:\n  builtin:\n    accel:\n      speed: 1\n":               `t.yaml:4:14: target.builtin.accel.speed: accel: unknown key "speed"`,
		"target: {builtin: {}}\nvariants: [{name: a, env: {K: v}}]\n":     "variants[0].env: variants set env but there is no server section",
	} {
		s, err := Parse("t.yaml", []byte(yaml))
		if err == nil {
			_, err = s.Compile(eightCPUs)
		}
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: got %v, want %q", yaml, err, wantErr)
		}
	}
}
