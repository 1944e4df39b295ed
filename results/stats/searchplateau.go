package stats

import (
	"math"
	"sort"
)

// SearchPlateau judges the points a search visited, each with its
// windows' scores (positive, higher is better): top is the point with the
// highest mean (the first of equals) among those measured twice or more
// (PairPlateau; -1 when no point has a score), and
// Plateau lists, in index order, top and every point that top is not
// significantly better than (PairPlateau). Untested lists the points
// with scores that could not be tested against top (fewer than two scores
// on a side, or a score that is not positive), which are on no plateau: a
// single window says nothing about noise.
func SearchPlateau(samples [][]float64) (top int, plateau, untested []int) {
	j := PairPlateau(samples, nil)
	plateau, untested = j.SearchLists(samples)
	return j.Top, plateau, untested
}

// SearchLists are SearchPlateau's plateau and untested points of j.
func (j Pairs) SearchLists(samples [][]float64) (plateau, untested []int) {
	if j.Top < 0 {
		return nil, nil
	}
	for i, s := range samples {
		switch {
		case i == j.Top:
			plateau = append(plateau, i)
		case len(s) == 0:
		case !j.Tested[i]:
			untested = append(untested, i)
		case !j.Below[i]:
			plateau = append(plateau, i)
		}
	}
	return plateau, untested
}

// Pairs is the judgement of PairPlateau.
type Pairs struct {
	// Top is the sample with the highest mean (the first of equals) of
	// those that can be tested; of all when none can; -1 when no sample
	// has a value.
	Top int
	// Below[i] is true when Top is significantly better than sample i;
	// Tested[i] when the two could be tested (two values or more on each
	// side, every value positive). Both are false for Top.
	Below, Tested []bool
	// Family is the number of pairs judged together (every pair of
	// samples that could be tested, not only those with Top).
	Family int
	// Caution is the Comparison.Caution of the test of Top against the
	// sample with the fewest values ("2 repetitions: t has 2 degrees of
	// freedom"); "" when every tested sample has three values or more.
	Caution string
}

// PairPlateau judges samples (positive, higher is better) as one family:
// every pair with at least two values a side is compared (Compare, the
// t-test on the logarithms) and Holm's step-down runs over all of them,
// with Shaffer's refinement for pairwise comparisons (shaffer).
// Top is the sample with the highest mean among those that can be tested
// (two values or more, all positive; among all when none can), and Below
// marks the samples Top is significantly better than. A sample of one
// window is never Top beside testable ones: one lucky window would
// otherwise be the answer with no CI, and leave every other sample
// untested (it has nothing to be compared with).
//
// Why every pair and not only the pairs with Top: Top is chosen as the
// highest of the means, so Top against the rest is the largest of the
// differences, not a typical one. Holm over Top's k−1 comparisons alone
// called a "best" among identical variants in 5.4 % of sweeps of 3 values
// with 2 repetitions and 10.8 % of 11 values with 5; Holm over every pair
// bounds the chance of any false claim by α whatever k and whichever
// sample turns out Top (it controls every pairwise error, so also those
// with Top). In simulation (sim_test.go) identical values lose a claim
// in 2–4 % of runs where the top-only rule did in 5.5–9.7 %. The cost is
// power: with k values the first step compares against α/(k(k−1)/2), so
// a sweep of many values needs more repetitions to name a best.
//
// agree, when not nil, may veto a claim: Below[i] also needs agree(Top, i)
// (a run's sweep asks that a claim about its baseline agree with the
// comparison with the baseline, so that the two never contradict). A
// veto only removes claims, so the family-wise rate stays at most α.
func PairPlateau(samples [][]float64, agree func(top, other int) bool) Pairs {
	j := Pairs{Top: -1, Below: make([]bool, len(samples)), Tested: make([]bool, len(samples))}
	means := make([]float64, len(samples))
	testable, once := 0, -1
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		means[i], _ = MeanStdDev(s)
		if _, ok := logAll(s, nil); !ok || len(s) < 2 {
			if once < 0 || means[i] > means[once] {
				once = i
			}
			continue
		}
		testable++
		if j.Top < 0 || means[i] > means[j.Top] {
			j.Top = i
		}
	}
	if j.Top < 0 {
		j.Top = once
	}
	if j.Top < 0 {
		return j
	}
	type pair struct{ a, b int }
	var pairs []pair
	var comps []Comparison
	var ps []float64
	for a := range samples {
		for b := a + 1; b < len(samples); b++ {
			c := Compare(samples[a], samples[b])
			if !c.Tested() {
				continue
			}
			pairs, comps, ps = append(pairs, pair{a, b}), append(comps, c), append(ps, c.PValue)
		}
	}
	j.Family = len(pairs)
	adj := shaffer(ps, testable)
	fewest := 0
	for k, pr := range pairs {
		if pr.a != j.Top && pr.b != j.Top {
			continue
		}
		other := pr.a + pr.b - j.Top
		j.Tested[other] = true
		if c := comps[k]; c.Caution != "" && (fewest == 0 || c.N < fewest) {
			fewest, j.Caution = c.N, c.Caution
		}
		if adj[k] < Alpha && means[other] < means[j.Top] && (agree == nil || agree(j.Top, other)) {
			j.Below[other] = true
		}
	}
	return j
}

// shaffer returns the adjusted p-values of the k(k−1)/2 pairwise
// comparisons of k samples by Shaffer's S1 (1986): Holm's step-down, but
// at step j the p-value is multiplied by the most hypotheses that can
// still be true once j−1 have been rejected, which for pairwise
// equalities is far fewer than Holm's m−j+1 (one difference among five
// means leaves at most 6 of the 10 equalities true, not 9). It controls
// the family-wise error like Holm, with more power. ps must hold every
// pair of the k samples; with any other count it falls back to Holm.
func shaffer(ps []float64, k int) []float64 {
	m := len(ps)
	if m != k*(k-1)/2 {
		return Holm(ps)
	}
	possible := trueNullCounts(k)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	out := make([]float64, m)
	running := 0.0
	for j, i := range idx {
		// The most true hypotheses possible with j rejected: the largest
		// possible count not above m − j.
		t := 0
		for _, n := range possible {
			if n <= m-j && n > t {
				t = n
			}
		}
		running = math.Max(running, math.Min(1, float64(t)*ps[i]))
		out[i] = running
	}
	return out
}

// trueNullCounts returns every number of pairwise equalities among k
// means that can be true at once: the means split into groups of equal
// ones, j of them equal give C(j, 2) true equalities, so the counts are
// C(j, 2) + a count for the other k − j (Shaffer 1986).
func trueNullCounts(k int) []int {
	sets := make([]map[int]bool, k+1)
	sets[0] = map[int]bool{0: true}
	for n := 1; n <= k; n++ {
		sets[n] = map[int]bool{}
		for j := 1; j <= n; j++ {
			for x := range sets[n-j] {
				sets[n][j*(j-1)/2+x] = true
			}
		}
	}
	var out []int
	for x := range sets[k] {
		out = append(out, x)
	}
	return out
}
