package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// speedBase has a speed section, no server section, and variants with env
// (allowed because of speed), a sweep and vars used in the commands.
const speedBase = `target: {builtin: {cert: rsa2048}}
vars: {secs: 1, tag: base}
variants:
  - name: baseline
  - name: noasm
    env: {OPENSSL_ia32cap: "~0xffffffffffffffff:~0xffffffffffffffff"}
  - name: r-{ratio}
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    vars: {tag: "soft{ratio}"}
    sweep: {ratio: [0, 33]}
speed:
  - command: openssl speed -seconds {secs} rsa2048
    timeout: 2m
  - command: bssl speed -filter RSA -timeout {secs}
`

// TestCompileSpeed checks that every variant gets the speed commands with
// its own {vars} expanded and the default timeout filled in, and that env
// is kept without a server section.
func TestCompileSpeed(t *testing.T) {
	p := compileNamed(t, "t.yaml", strings.Replace(speedBase, "rsa2048\n", "rsa2048 > {tag}.txt\n", 1))
	if got, want := len(p.Variants), 4; got != want {
		t.Fatalf("got %d variants, want %d", got, want)
	}
	for i, v := range p.Variants {
		tag := [...]string{"base", "base", "soft0", "soft33"}[i]
		want := []plans.Speed{
			{Command: "openssl speed -seconds 1 rsa2048 > " + tag + ".txt", Timeout: 2 * time.Minute},
			{Command: "bssl speed -filter RSA -timeout 1", Timeout: DefaultSpeedTimeout},
		}
		if !reflect.DeepEqual(v.Speed, want) {
			t.Errorf("%s: got speed %#v, want %#v", v.Name, v.Speed, want)
		}
	}
	if got, want := p.Variants[1].Env, map[string]string{"OPENSSL_ia32cap": "~0xffffffffffffffff:~0xffffffffffffffff"}; !reflect.DeepEqual(got, want) {
		t.Errorf("noasm env: got %v, want %v", got, want)
	}
	if got, want := p.Variants[3].Env, map[string]string{"KAE_GO_SOFT_RATIO": "33"}; !reflect.DeepEqual(got, want) {
		t.Errorf("r-33 env: got %v, want %v", got, want)
	}
	if p.Variants[0].Env != nil {
		t.Errorf("baseline env: got %v, want none", p.Variants[0].Env)
	}
}

// TestCompileWithoutSpeed checks that a plan without a speed section has
// no speed commands, and that env still needs a server without one.
func TestCompileWithoutSpeed(t *testing.T) {
	p := compileNamed(t, "t.yaml", "target: {builtin: {cert: rsa2048}}\n")
	if p.Variants[0].Speed != nil {
		t.Errorf("got speed %#v, want none", p.Variants[0].Speed)
	}
	s, err := Parse("t.yaml", []byte("target: {builtin: {cert: rsa2048}}\nvariants: [{name: a, env: {X: y}}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Compile(eightCPUs)
	if got, want := errString(err), "t.yaml:2:22: variants[0].env: variants set env but there is no server section to start the server with (add server: {start: …, stop: …})"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestDescribeSpeed checks that Describe lists the speed commands: once
// when shared, per variant when {name} makes them differ.
func TestDescribeSpeed(t *testing.T) {
	tests := []struct {
		yaml  string
		wants []string
	}{
		{speedBase, []string{
			"speed     once per variant, with its env\n",
			"            openssl speed -seconds 1 rsa2048  (timeout 2m0s)\n",
			"            bssl speed -filter RSA -timeout 1  (timeout 10m0s)\n",
			"            env     OPENSSL_ia32cap=~0xffffffffffffffff:~0xffffffffffffffff (speed commands only)\n",
		}},
		{strings.Replace(speedBase, "rsa2048\n", "rsa2048 > {tag}.txt\n", 1), []string{
			"            r-33:\n",
			"              openssl speed -seconds 1 rsa2048 > soft33.txt  (timeout 2m0s)\n",
		}},
	}
	for i, tt := range tests {
		var b strings.Builder
		Describe(&b, compileNamed(t, "t.yaml", tt.yaml))
		for _, w := range tt.wants {
			if !strings.Contains(b.String(), w) {
				t.Errorf("case %d: got\n%s\nwant it to contain %q", i, b.String(), w)
			}
		}
	}
}

// TestSetSpeed checks --set on the speed section.
func TestSetSpeed(t *testing.T) {
	s, err := Parse("t.yaml", []byte(speedBase))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"speed[0].timeout", "5s"}, {"speed[1].command", "openssl speed -seconds {secs} ecdsap256"}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set %s=%s: %v", kv[0], kv[1], err)
		}
	}
	p, err := s.Compile(eightCPUs)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, p)
	if got, want := p.Variants[0].Speed[1], (plans.Speed{Command: "openssl speed -seconds 1 ecdsap256", Timeout: DefaultSpeedTimeout}); got != want {
		t.Errorf("got %#v, want %#v", got, want)
	}
	if got, want := p.Variants[0].Speed[0].Timeout, 5*time.Second; got != want {
		t.Errorf("timeout: got %s, want %s", got, want)
	}
	if err := s.Set("speed[0].timeout", "0s"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Compile(eightCPUs)
	if got, want := errString(err), "--set speed[0].timeout=0s: speed[0].timeout: must be positive, got 0s"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
