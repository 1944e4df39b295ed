package stats

import (
	"math"
	"sync"
)

// Pairs is PairPlateau's judgement: Top the first highest mean of the testable samples (of all
// when none is; -1: none), Plateau (with Top) the points Top does not beat significantly, Untested
// those that could not be tested with Top; empty samples are in neither.
type Pairs struct {
	Top               int
	Plateau, Untested []int
	Family            int    // pairs judged together, not only Top's
	Caution           string // of Top's test with the fewest values
}

// PairPlateau judges every testable pair as one Holm–Shaffer family: Holm over Top's pairs alone
// called a "best" among identical values in 10.8 % of sweeps. agree may veto Top's beating one.
func PairPlateau(samples [][]float64, agree func(top, other int) bool) Pairs {
	j, tested := Pairs{}, make([]bool, len(samples))
	means, logs := make([]float64, len(samples)), make([][]float64, len(samples))
	testable, best := 0, [2]int{-1, -1} // the first highest mean of the untestable, of the testable
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		means[i], _ = MeanStdDev(s)
		k := 0
		if l, ok := logOf(s); ok && len(s) >= 2 {
			logs[i], testable, k = l, testable+1, 1
		}
		if best[k] < 0 || means[i] > means[best[k]] {
			best[k] = i
		}
	}
	if j.Top = best[1]; j.Top < 0 {
		j.Top = best[0] // nothing testable: no pair either
	}
	// Every testable pair by Compare's test; at[other]: the index in ps of Top's pair with other.
	ps := make([]float64, 0, testable*(testable-1)/2)
	at, fewest := make([]int, len(samples)), 0
	for a := range samples {
		for b := a + 1; b < len(samples) && logs[a] != nil; b++ {
			if logs[b] == nil {
				continue
			}
			c, _, _ := tTest(logs[a], logs[b], roundingTolerance(logs[a], logs[b]), len(logs[a]) == len(logs[b]))
			if math.IsNaN(c.PValue) {
				continue // Compare's TestCannot, outside the family
			}
			if other := a + b - j.Top; a == j.Top || b == j.Top {
				tested[other], at[other] = true, len(ps)
				c.N = min(len(logs[a]), len(logs[b]))
				if s := caution(c); s != "" && (fewest == 0 || c.N < fewest) {
					fewest, j.Caution = c.N, s
				}
			}
			ps = append(ps, c.PValue)
		}
	}
	j.Family = len(ps)
	adj := shaffer(ps, testable)
	for i, s := range samples {
		switch {
		case i == j.Top:
			j.Plateau = append(j.Plateau, i)
		case len(s) == 0:
		case !tested[i]:
			j.Untested = append(j.Untested, i)
		case !(adj[at[i]] < Alpha && means[i] < means[j.Top]) || agree != nil && !agree(j.Top, i):
			j.Plateau = append(j.Plateau, i)
		}
	}
	return j
}

// shaffer adjusts all k(k−1)/2 pairs' ps by Shaffer's S1 (1986), step j's multiplier the most
// hypotheses still possibly true; Holm for any other count.
func shaffer(ps []float64, k int) []float64 {
	m := len(ps)
	if m != k*(k-1)/2 {
		return Holm(ps)
	}
	most := mostTrueNulls(k)
	return stepDown(ps, func(j, _ int) int { return int(most[m-j]) })
}

// mostTrueNulls is, by L ≤ k(k−1)/2, the most equalities (≤ L) of k means that can hold at once.
func mostTrueNulls(k int) []int32 {
	if v, ok := mostTrueNullsCache.Load(k); ok {
		return v.([]int32)
	}
	most, _ := fewestMeansSteps(k) // overwritten in place: n is read before most[t] is set
	for t, n := range most {
		most[t] = int32(t)
		if int(n) > k {
			most[t] = most[t-1] // t = 0 needs no means: never here
		}
	}
	mostTrueNullsCache.Store(k, most)
	return most
}

var mostTrueNullsCache sync.Map // k -> []int32

// fewestMeansSteps is, by t, the fewest means giving t equalities, f(t) = min over C(j, 2) ≤ t of
// j + f(t − C(j, 2)), in about m^1.5 steps (counted).
func fewestMeansSteps(k int) (f []int32, steps int) {
	m := k * (k - 1) / 2
	f = make([]int32, m+1)
	for t := 1; t <= m; t++ {
		best := int32(math.MaxInt32)
		// c = C(j, 2); a larger group than the best cannot beat it.
		for j, c := 2, 1; c <= t && int32(j) < best; j, c = j+1, c+j {
			steps++
			best = min(best, int32(j)+f[t-c])
		}
		f[t] = best
	}
	return f, steps
}
