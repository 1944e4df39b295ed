package scenarios

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAliasBombIsBounded checks that a small file whose aliases expand to
// millions of values is refused quickly instead of exhausting the machine.
func TestAliasBombIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("target: {url: https://127.0.0.1/}\nvariants:\n  - &v {name: a, sweep: {k0: &l [")
	for i := range 100 {
		fmt.Fprintf(&b, "%d,", i)
	}
	b.WriteString("0]")
	for i := 1; i < 100; i++ {
		fmt.Fprintf(&b, ", k%d: *l", i)
	}
	b.WriteString("}}\n")
	for range 200 {
		b.WriteString("  - *v\n")
	}
	start := time.Now()
	s, err := Parse("bomb.yaml", []byte(b.String()))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Parse took %s", took)
	}
	if s != nil {
		t.Errorf("Parse returned the scenario it gave up on, for Compile")
	}
	if got, want := errString(err), fmt.Sprintf("the document expands to more than %d values", maxVisits); !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
}

// TestMergeBombIsLinear checks that merging one anchor many times, nested,
// costs nothing extra and merges correctly.
func TestMergeBombIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("target: {url: https://127.0.0.1/}\nserver: {start: nginx}\nvariants:\n  - {name: v0, env: &e0 {A: x}}\n")
	for i := 1; i < 8; i++ {
		fmt.Fprintf(&b, "  - {name: v%d, env: &e%d {<<: [", i, i)
		for j := range 20 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*e%d", i-1)
		}
		fmt.Fprintf(&b, "], K%d: y}}\n", i)
	}
	start := time.Now()
	s, err := Parse("merge.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Parse took %s", took)
	}
	p, err := s.Compile(eightCPUs)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, p)
	if got, want := len(p.Variants[7].Env), 8; got != want {
		t.Errorf("v7 env has %d entries (%v), want %d: A and K1..K7", got, p.Variants[7].Env, want)
	}
}
