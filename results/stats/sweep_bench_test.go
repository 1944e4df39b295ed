package stats

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// sweepSamples returns k samples of n rates around 1000 with relative
// noise sigma.
func sweepSamples(k, n int, sigma float64, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([][]float64, k)
	for i := range out {
		for range n {
			out[i] = append(out[i], 1000*(1+sigma*r.NormFloat64()))
		}
	}
	return out
}

// BenchmarkPairPlateau: every pair of a sweep's values judged together.
// The multipliers of Shaffer's step-down are cached per k after the first
// run. Before the counts were computed as sums (fewestMeans), 300 values
// took 9.2 s and the time grew as k^4.2.
func BenchmarkPairPlateau(b *testing.B) {
	for _, k := range []int{11, 100, 300, 1000} {
		s := sweepSamples(k, 3, 0.015, 1)
		b.Run(strconv.Itoa(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PairPlateau(s, nil)
			}
		})
	}
}

// TestSweepThousandValues: the scenario allows a sweep of 1,000 values,
// and its rule must finish. Counted in steps, not seconds: Shaffer's
// counts take about (2/3)·√2·m^1.5 steps for m = k(k−1)/2 pairs (k³ for k
// values, where the sets they replaced took k⁴), and the pairs are tested
// once each. The run itself, with a value planted at twice the others, is
// skipped under -race, where it would take ten times its second.
func TestSweepThousandValues(t *testing.T) {
	_, s300 := fewestMeansSteps(300)
	_, s600 := fewestMeansSteps(600)
	if m := 600 * 599 / 2; float64(s600) > 0.95*math.Pow(float64(m), 1.5) {
		t.Errorf("fewestMeans(600): %d steps, want at most (2/3)·√2·m^1.5 = %.3g", s600, 0.95*math.Pow(float64(m), 1.5))
	}
	if r := float64(s600) / float64(s300); r > 9 {
		t.Errorf("fewestMeans: %d steps for 600 values, %d for 300: ratio %.2f, want about 2³ = 8 (k⁴ would be 16)", s600, s300, r)
	}
	if raceEnabled {
		t.Skip("the thousand-value run: not under -race")
	}
	samples := sweepSamples(1000, 5, 0.01, 7)
	for i := range samples[500] {
		samples[500][i] *= 2
	}
	j := PairPlateau(samples, nil)
	below := len(samples) - len(j.Plateau) - len(j.Untested)
	if j.Top != 500 || j.Family != 1000*999/2 || below != 999 {
		t.Errorf("1,000 values, value 500 at twice the rest: top %d, family %d, %d below it; want 500, %d, 999", j.Top, j.Family, below, 1000*999/2)
	}
}

// TestRepsForBest: the repetitions RepsForBest plans for a sweep do name
// its best with Power when the best leads by the effect asked, measured
// by running the rule (PairPlateau) on seeded simulated sweeps: 11 values
// with 1.5 % noise and a leader 12 % ahead, the case that was named in
// 16 % of runs with 3 repetitions. The plan asks for more than 3, and
// more than the baseline comparisons alone would (RepsFor).
func TestRepsForBest(t *testing.T) {
	const values, noise, effect, trials = 11, 1.5, 0.12, 400
	n, ok := RepsForBest(noise, effect, values, 100)
	if !ok || n <= 3 {
		t.Fatalf("RepsForBest(%v %%, %v, %d values) = %d, %v; want more than 3", noise, effect, values, n, ok)
	}
	if base, _ := RepsFor(noise, effect, values-1, 100); n < base {
		t.Errorf("RepsForBest = %d, fewer than the %d the baseline comparisons need", n, base)
	}
	named := func(reps int) float64 {
		r := rand.New(rand.NewPCG(uint64(reps), 11))
		hits := 0
		for range trials {
			s := make([][]float64, values)
			for i := range s {
				for range reps {
					x := 1000 * math.Exp(noise/100*r.NormFloat64())
					if i == 5 {
						x *= 1 + effect
					}
					s[i] = append(s[i], x)
				}
			}
			j := PairPlateau(s, nil)
			below := len(s) - len(j.Plateau) - len(j.Untested)
			if j.Top == 5 && below == values-1 {
				hits++
			}
		}
		return float64(hits) / trials
	}
	planned, three := named(n), named(3)
	if planned < Power {
		t.Errorf("with %d repetitions the leader was named best in %.1f %% of %d sweeps, want at least %.0f %%", n, planned*100, trials, Power*100)
	}
	if three > 0.5 {
		t.Errorf("with 3 repetitions the leader was named best in %.1f %% of %d sweeps; the issue measured 16 %%", three*100, trials)
	}
	t.Logf("RepsForBest: %d repetitions; named best with %d: %.1f %%, with 3: %.1f %%", n, n, planned*100, three*100)
}
