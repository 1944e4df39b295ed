package render

import (
	"bytes"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestSweepAgreesWithBaseline: a sweep's claim about the baseline agrees
// with the comparison with the baseline. The baseline x-0 is a value of
// the sweep, and x-1 is 3 % faster with 1 % noise (p ≈ 0.02 over three
// repetitions). Judged alone in its sweep the pair is significant, but the
// run compares nine variants with the baseline, and Holm over nine calls
// x-1 inconclusive; the sweep then names no best, or its line would say
// "significantly faster than every other value" of a variant the table
// calls inconclusive against one of those values. Without the eight
// other variants both say significant.
func TestSweepAgreesWithBaseline(t *testing.T) {
	sweep := func(v string, requests ...uint64) results.Variant {
		return results.Variant{Name: "x-" + v, Series: "x-{v}", Sweep: map[string]string{"v": v}, Reps: reps(requests...)}
	}
	for _, tt := range []struct {
		others   int
		wantBest bool
	}{{8, false}, {0, true}} {
		r := &results.Run{Name: "agree", Baseline: "x-0", Started: fixture.T0, Order: results.OrderRandomized, Seed: 3, Variants: []results.Variant{
			sweep("1", 206000, 208000, 204000),
			sweep("0", 200000, 202000, 198000),
		}}
		for i := range tt.others {
			r.Variants = append(r.Variants, results.Variant{Name: fmt.Sprintf("n%d", i), Reps: reps(202000, 198000, 200000)})
		}
		s := analysis.Analyze(r).Summary
		c, sw := s.Variants[0].Comparison, s.Sweeps[0]
		if c.Significant != tt.wantBest || c.Family != tt.others+1 {
			t.Fatalf("%d other variants: x-1 against the baseline %+v, want significant %v in a family of %d", tt.others, c, tt.wantBest, tt.others+1)
		}
		if got := sw.Best == 0; got != tt.wantBest || (!tt.wantBest && len(sw.Plateau) != 2) {
			t.Errorf("%d other variants: sweep best %d plateau %v, want best %v: the sweep must agree with the comparison (%s)", tt.others, sw.Best, sw.Plateau, tt.wantBest, format.VerdictWords(c))
		}
		var text bytes.Buffer
		if err := WriteText(&text, analysis.Analyze(r)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text.String(), "best: 1, significantly faster than every other value"); got != tt.wantBest {
			t.Errorf("%d other variants: the report names 1 the best: %v, want %v:\n%s", tt.others, got, tt.wantBest, text.String())
		}
	}
}
