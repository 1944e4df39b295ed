package results

// SearchPlateau judges the points a search visited, each with its
// windows' scores (positive, higher is better): top is the point with the
// highest mean (the first of equals; -1 when no point has a score), and
// Plateau lists, in index order, top and every point that top is not
// significantly better than (PairPlateau). Untested lists the points
// with scores that could not be tested against top (fewer than two scores
// on a side, or a score that is not positive), which are on no plateau: a
// single window says nothing about noise.
func SearchPlateau(samples [][]float64) (top int, plateau, untested []int) {
	j := PairPlateau(samples, nil)
	plateau, untested = j.searchLists(samples)
	return j.Top, plateau, untested
}

// searchLists are SearchPlateau's plateau and untested points of j.
func (j Pairs) searchLists(samples [][]float64) (plateau, untested []int) {
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
	// Top is the sample with the highest mean (the first of equals); -1
	// when no sample has a value.
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
// t-test on the logarithms) and Holm's adjustment runs over all of them.
// Top is the sample with the highest mean, and Below marks the samples
// Top is significantly better than.
//
// Why every pair and not only the pairs with Top: Top is chosen as the
// highest of the means, so Top against the rest is the largest of the
// differences, not a typical one. Holm over Top's k−1 comparisons alone
// called a "best" among identical variants in 5.4 % of sweeps of 3 values
// with 2 repetitions and 10.8 % of 11 values with 5; Holm over every pair
// bounds the chance of any false claim by α whatever k and whichever
// sample turns out Top (it controls every pairwise error, so also those
// with Top). The cost is power: with k values the first step compares
// against α/(k(k−1)/2).
//
// agree, when not nil, may veto a claim: Below[i] also needs agree(Top, i)
// (a run's sweep asks that a claim about its baseline agree with the
// comparison with the baseline, so that the two never contradict). A
// veto only removes claims, so the family-wise rate stays at most α.
func PairPlateau(samples [][]float64, agree func(top, other int) bool) Pairs {
	j := Pairs{Top: -1, Below: make([]bool, len(samples)), Tested: make([]bool, len(samples))}
	var best float64
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		if m := Summarize(s).Mean; j.Top < 0 || m > best {
			j.Top, best = i, m
		}
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
			if !tested1(c) {
				continue
			}
			pairs, comps, ps = append(pairs, pair{a, b}), append(comps, c), append(ps, c.PValue)
		}
	}
	j.Family = len(pairs)
	adj := Holm(ps)
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
		if adj[k] < Alpha && Summarize(samples[other]).Mean < best && (agree == nil || agree(j.Top, other)) {
			j.Below[other] = true
		}
	}
	return j
}
