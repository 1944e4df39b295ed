package stats

import (
	"slices"
	"testing"
)

// TestSearchPlateauOnceNotTop: a point measured once with the highest
// score is not the search's answer: it has no CI and cannot be compared
// with anything, so the answer is the best of the points measured twice
// or more, the once-measured point is listed untested, and the plateau
// is judged among the tested points. (A flat-top search whose last
// window visited a new value named that value best, with no CI and no
// plateau beside it.)
func TestSearchPlateauOnceNotTop(t *testing.T) {
	samples := [][]float64{
		{300, 302, 301},      // 0: on the plateau
		{310, 309, 311, 310}, // 1: the best of the tested
		{330},                // 2: measured once, highest
		{150, 151, 149},      // 3: half the cost: below
		nil,                  // 4: not visited
	}
	j := PairPlateau(samples, nil)
	top, plateau, untested := j.Top, j.Plateau, j.Untested
	if top != 1 {
		t.Errorf("top %d, want 1 (the once-measured 2 beside testable points)", top)
	}
	if !slices.Equal(untested, []int{2}) {
		t.Errorf("untested %v, want [2]", untested)
	}
	if slices.Contains(plateau, 3) || slices.Contains(plateau, 2) || !slices.Contains(plateau, 1) {
		t.Errorf("plateau %v, want 1 (and perhaps 0), never 2 or 3", plateau)
	}

	// With nothing testable, the highest single window is all there is.
	j = PairPlateau([][]float64{{300}, {330}, nil}, nil)
	top, plateau, untested = j.Top, j.Plateau, j.Untested
	if top != 1 || !slices.Equal(plateau, []int{1}) || !slices.Equal(untested, []int{0}) {
		t.Errorf("all once: top %d plateau %v untested %v, want 1 [1] [0]", top, plateau, untested)
	}
	if top := PairPlateau([][]float64{nil, nil}, nil).Top; top != -1 {
		t.Errorf("nothing measured: top %d, want -1", top)
	}
}
