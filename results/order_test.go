package results

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestBlockOrderPinned pins the randomized order of one seed: a user
// replays a run's order with --seed months later, on another machine and
// another Go release, so any change to BlockOrder's output is a break.
func TestBlockOrderPinned(t *testing.T) {
	got := [][]int{BlockOrder(42, 5, 0), BlockOrder(42, 5, 1), BlockOrder(42, 5, 2), BlockOrder(7, 3, 0)}
	want := [][]int{{3, 0, 4, 1, 2}, {1, 2, 0, 4, 3}, {2, 3, 1, 4, 0}, {0, 1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BlockOrder orders = %v, want %v: replaying a stored seed would run another order", got, want)
	}
	// Every round is a permutation, and rounds differ.
	counts := map[string]int{}
	for r := range 200 {
		o := BlockOrder(1, 4, r)
		s := slices.Clone(o)
		slices.Sort(s)
		if !slices.Equal(s, []int{0, 1, 2, 3}) {
			t.Fatalf("round %d: %v is not a permutation of 0..3", r, o)
		}
		counts[stringOf(o)]++
	}
	// 200 rounds over 24 permutations: each expected 8.3 times; a fixed
	// or badly skewed order would leave most unseen.
	seen := 0
	for k, n := range counts {
		if strings.HasPrefix(k, "p:") && n > 0 {
			seen++
		}
	}
	if seen < 20 {
		t.Errorf("200 rounds used only %d of the 24 orders of 4 variants", seen)
	}
}

func stringOf(o []int) string {
	var b strings.Builder
	b.WriteString("p:")
	for _, v := range o {
		b.WriteByte(byte('0' + v))
	}
	return b.String()
}
