package results

// SearchPlateau judges the points a search visited, each with its
// windows' scores (positive, higher is better): top is the point with the
// highest mean (the first of equals; -1 when no point has a score), and
// Plateau lists, in index order, top and every point that top is not
// significantly better than. The test is Compare's, the t-test on the
// logarithms, with Holm's adjustment; the family is every pair of points
// with at least two scores, not only the pairs with top, because top was
// chosen as the highest of them: comparing the winner with the rest alone
// calls equal points different far more often than Alpha (with three
// equal points and two windows each, about one run in ten). Untested
// lists the points with scores that could not be tested (fewer than two
// scores on a side), which are on no plateau: a single window says
// nothing about noise.
func SearchPlateau(samples [][]float64) (top int, plateau, untested []int) {
	top = -1
	var best float64
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		if m := Summarize(s).Mean; top < 0 || m > best {
			top, best = i, m
		}
	}
	if top < 0 {
		return -1, nil, nil
	}
	var tested []int
	for i, s := range samples {
		if len(s) >= 2 {
			tested = append(tested, i)
		}
	}
	type pair struct{ a, b int }
	var pairs []pair
	var ps []float64
	for x, i := range tested {
		for _, j := range tested[x+1:] {
			c := Compare(samples[i], samples[j])
			if c.Test == TestNone {
				continue
			}
			pairs, ps = append(pairs, pair{i, j}), append(ps, c.PValue)
		}
	}
	adj := Holm(ps)
	below := map[int]bool{} // significantly below top
	for k, pr := range pairs {
		if adj[k] >= Alpha || (pr.a != top && pr.b != top) {
			continue
		}
		other := pr.a + pr.b - top
		if Summarize(samples[other]).Mean < best {
			below[other] = true
		}
	}
	for i, s := range samples {
		switch {
		case i == top:
			plateau = append(plateau, i)
		case len(s) == 0:
		case len(s) < 2 || len(samples[top]) < 2:
			untested = append(untested, i)
		case !below[i]:
			plateau = append(plateau, i)
		}
	}
	return top, plateau, untested
}
