package scenarios

import (
	"fmt"
	"strings"
	"syscall"
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
	// The bound's cost, against a plain document of half as many values
	// parsed in the same test: CPU time, which the machine's other load
	// does not lengthen.
	var plain strings.Builder
	plain.WriteString("target: {url: https://127.0.0.1/}\nvariants:\n  - {name: a, sweep: {k: [")
	for i := range maxVisits / 2 {
		fmt.Fprintf(&plain, "%d,", i)
	}
	plain.WriteString("0]}}\n")
	ref := cpuTime(t, func() { _, _ = Parse("plain.yaml", []byte(plain.String())) })
	var s *Scenario
	var err error
	took := cpuTime(t, func() { s, err = Parse("bomb.yaml", []byte(b.String())) })
	t.Logf("refused after %v of CPU; %d plain values took %v", took, maxVisits/2, ref)
	if took > 10*ref {
		t.Errorf("Parse took %v of CPU to refuse the bomb, more than 10 × the %v of a plain document of %d values", took, ref, maxVisits/2)
	}
	if s != nil {
		t.Errorf("Parse returned the scenario it gave up on, for Compile")
	}
	if got, want := errString(err), fmt.Sprintf("the document expands to more than %d values", maxVisits); !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
}

// mergeDoc is 8 variants whose env each merges the previous one's anchor
// k times.
func mergeDoc(k int) string {
	var b strings.Builder
	b.WriteString("target: {url: https://127.0.0.1/}\nserver: {start: nginx}\nvariants:\n  - {name: v0, env: &e0 {A: x}}\n")
	for i := 1; i < 8; i++ {
		fmt.Fprintf(&b, "  - {name: v%d, env: &e%d {<<: [", i, i)
		for j := range k {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*e%d", i-1)
		}
		fmt.Fprintf(&b, "], K%d: y}}\n", i)
	}
	return b.String()
}

// TestMergeBombIsLinear checks that merging one anchor many times, nested,
// costs nothing extra and merges correctly. The cost is measured against
// the same nesting with one merge per level, parsed in the same test,
// each 20 times, in CPU time: merged naively, 20 merges per level would
// cost 20⁷ times as much; linearly, about the file's 20-fold size.
func TestMergeBombIsLinear(t *testing.T) {
	bomb, one := mergeDoc(20), mergeDoc(1)
	ref := cpuTime(t, func() {
		for range 20 {
			_, _ = Parse("merge1.yaml", []byte(one))
		}
	})
	var s *Scenario
	var err error
	took := cpuTime(t, func() {
		for range 20 {
			s, err = Parse("merge.yaml", []byte(bomb))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("20 parses: %v of CPU, %v with one merge per level", took, ref)
	if took > 100*ref {
		t.Errorf("Parse took %v of CPU, more than 100 × the %v of one merge per level", took, ref)
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

// cpuTime is the CPU time (user and system, this process) f takes: what
// the work costs, which other processes on the machine do not lengthen.
func cpuTime(t *testing.T, f func()) time.Duration {
	t.Helper()
	before := rusage(t)
	f()
	return rusage(t) - before
}

func rusage(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
