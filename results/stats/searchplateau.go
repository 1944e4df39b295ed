package stats

import (
	"cmp"
	"math"
	"slices"
	"sync"
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
	// Every pair of testable samples, tested on logarithms taken once:
	// Compare's test (tTest on the logs, Compare's rounding tolerance)
	// without its k² allocations. Only the pairs with Top keep their
	// Comparison (for the caution); the others need only their p.
	logs := make([][]float64, len(samples))
	for i, s := range samples {
		if l, ok := logAll(s, nil); ok && len(s) >= 2 {
			logs[i] = l[0]
		}
	}
	type pair struct{ a, b int32 }
	pairs := make([]pair, 0, testable*(testable-1)/2)
	ps := make([]float64, 0, testable*(testable-1)/2)
	for a := range samples {
		if logs[a] == nil {
			continue
		}
		for b := a + 1; b < len(samples); b++ {
			if logs[b] == nil {
				continue
			}
			p := tTest(logs[a], logs[b], roundingTolerance(logs[a], logs[b])).PValue
			if math.IsNaN(p) {
				continue // Compare: TestCannot, outside the family
			}
			pairs, ps = append(pairs, pair{int32(a), int32(b)}), append(ps, p)
		}
	}
	j.Family = len(pairs)
	adj := shaffer(ps, testable)
	fewest := 0
	for k, pr := range pairs {
		a, b := int(pr.a), int(pr.b)
		if a != j.Top && b != j.Top {
			continue
		}
		other := a + b - j.Top
		j.Tested[other] = true
		if c := Compare(samples[a], samples[b]); c.Caution != "" && (fewest == 0 || c.N < fewest) {
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
	most := mostTrueNulls(k)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	// Ascending p, equals in their order (a stable sort's order; the
	// merge sort of sort.SliceStable took half the time at 1,000 values).
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ps[a], ps[b]); c != 0 {
			return c
		}
		return a - b
	})
	out := make([]float64, m)
	running := 0.0
	for j, i := range idx {
		// The most true hypotheses possible with j rejected: the largest
		// possible count not above m − j.
		running = math.Max(running, math.Min(1, float64(most[m-j])*ps[i]))
		out[i] = running
	}
	return out
}

// trueNullCounts returns every number of pairwise equalities among k
// means that can be true at once: the means split into groups of equal
// ones, j of them equal give C(j, 2) true equalities, so the counts are
// the sums of C(j, 2) over the groups of a partition of k (Shaffer 1986).
func trueNullCounts(k int) []int {
	fewest := fewestMeans(k)
	var out []int
	for t, n := range fewest {
		if int(n) <= k {
			out = append(out, t)
		}
	}
	return out
}

// mostTrueNulls returns, for every L from 0 to k(k−1)/2, the largest
// count of true pairwise equalities among k means (trueNullCounts) that
// is at most L: the multipliers of Shaffer's step-down. It is cached per
// k, for a run's sweeps and a simulation's thousands of trials ask for
// the same few.
func mostTrueNulls(k int) []int32 {
	if v, ok := mostTrueNullsCache.Load(k); ok {
		return v.([]int32)
	}
	fewest := fewestMeans(k)
	most := make([]int32, len(fewest))
	for t, n := range fewest {
		most[t] = int32(t)
		if int(n) > k {
			most[t] = most[t-1] // t = 0 needs no means: never here
		}
	}
	mostTrueNullsCache.Store(k, most)
	return most
}

var mostTrueNullsCache sync.Map // k -> []int32

// fewestMeans returns, for every t from 0 to k(k−1)/2, the fewest means
// whose groups of equal ones give exactly t pairwise equalities (groups
// of j give C(j, 2); the k means not in a group stand alone and give
// none), so t is possible among k means when it is at most k. It is
// f(t) = min over j ≥ 2 with C(j, 2) ≤ t of j + f(t − C(j, 2)): about
// (2/3)·√2·m^1.5 steps for m = k(k−1)/2, 3·10⁸ for 1,000 means. The sets
// of counts this replaced, built up one mean at a time in maps, took
// k⁴ steps: 9 s for 300 values, hours for the 1,000 a sweep may have.
func fewestMeans(k int) []int32 {
	f, _ := fewestMeansSteps(k)
	return f
}

// fewestMeansSteps is fewestMeans and the number of steps it took.
func fewestMeansSteps(k int) (f []int32, steps int) {
	m := k * (k - 1) / 2
	f = make([]int32, m+1)
	for t := 1; t <= m; t++ {
		best := int32(math.MaxInt32)
		for j, c := 2, 1; c <= t; j, c = j+1, c+j {
			// c = C(j, 2); a group larger than the best count so far
			// cannot beat it.
			if int32(j) >= best {
				break
			}
			steps++
			if v := int32(j) + f[t-c]; v < best {
				best = v
			}
		}
		f[t] = best
	}
	return f, steps
}
