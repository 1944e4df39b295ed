package stats

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// SearchPlateau judges the points a search visited, each with its
// windows' scores (positive, higher is better): top is the highest mean
// among points measured twice or more (-1 when no point has a score),
// plateau lists top and every point top is not significantly better than
// (PairPlateau), and untested the points that could not be tested
// against top; they are on no plateau.
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
// every pair with two or more values a side is compared (Compare) under
// Holm's step-down with Shaffer's refinement (shaffer). Top is the
// highest mean among the testable samples (among all when none is), and
// Below marks those Top is significantly better than. Every pair, not
// only Top's: Top is the largest difference by choice, and Holm over its
// comparisons alone called a "best" among identical values in up to 10.8 %
// of sweeps (sim_test.go). agree, when not nil, may veto a claim: Below[i]
// also needs agree(Top, i); a veto only removes claims.
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
// comparisons of k samples by Shaffer's S1 (1986): Holm's step-down with
// step j's multiplier the most hypotheses still possibly true, far fewer
// than Holm's m−j+1 for pairwise equalities. ps must hold every pair;
// with any other count it falls back to Holm.
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
// means that can be true at once: sums of C(j, 2) over the groups of a
// partition of k (Shaffer 1986).
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
// count of true pairwise equalities among k means that is at most L:
// Shaffer's multipliers, cached per k.
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
// whose groups of equal ones give exactly t pairwise equalities:
// f(t) = min over j ≥ 2 with C(j, 2) ≤ t of j + f(t − C(j, 2)), about
// (2/3)·√2·m^1.5 steps for m = k(k−1)/2 (the maps it replaced took k⁴).
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
