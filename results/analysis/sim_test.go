package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	rand "math/rand/v2"
	"testing"
)

// The simulations below test the statistics alone, on synthetic runs whose
// truth is known: every variant's rate is 10,000 req/s times its planted
// effect, times the machine's drift at the moment its window ran, times
// noise proportional to the rate (log-normal). Each uses a fixed seed, so
// its verdict is the same on every machine; the thresholds allow twice the
// binomial standard error of the estimated rate, so that they hold for
// any honest seed, not just this one.

// simMachine describes the synthetic machine and run.
type simMachine struct {
	variants, rounds int
	noise            float64       // sd of ln(rate) per window
	drift            float64       // total change of ln(rate) from the first window to the last
	order            results.Order // OrderRandomized or OrderSequential
}

// run returns each variant's rates by repetition, with effects[v] the
// planted ln-ratio of variant v against variant 0 (nil: none).
func (m simMachine) run(rng *rand.Rand, effects []float64) [][]float64 {
	windows := m.variants * m.rounds
	rates := make([][]float64, m.variants)
	for v := range rates {
		rates[v] = make([]float64, m.rounds)
	}
	at := 0
	window := func(v, r int) {
		x := math.Log(10000) + m.noise*rng.NormFloat64()
		if windows > 1 {
			x += m.drift * float64(at) / float64(windows-1)
		}
		if effects != nil {
			x += effects[v]
		}
		rates[v][r] = math.Exp(x)
		at++
	}
	switch m.order {
	case results.OrderSequential:
		for v := range m.variants {
			for r := range m.rounds {
				window(v, r)
			}
		}
	default:
		// The runner's own schedule: randomized blocks from a seed.
		seed := rng.Uint64()
		for r := range m.rounds {
			for _, v := range results.BlockOrder(seed, m.variants, r) {
				window(v, r)
			}
		}
	}
	return rates
}

// verdicts compares variants 1.. with variant 0 as a run does.
func verdicts(rates [][]float64) []stats.Comparison {
	return stats.CompareFamily(rates[0], rates[1:], results.DefaultEquivalence)
}

// binomialSE is the standard error of a rate p estimated from n trials.
func binomialSE(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

// TestSimAAFalseAlarms is the A/A test of the design: five identical
// variants, three rounds, 1.5 % noise and a machine that slows steadily over
// the run (3 %). With randomized blocks and Holm's adjustment the chance that
// any comparison is called significant (the family-wise false-alarm
// rate) is at most α. Each half of the design is needed: sequential order
// lets the drift land between variants, and judging four comparisons
// unadjusted gives four chances of a false alarm; together they call
// identical variants different several times as often as α promises.
func TestSimAAFalseAlarms(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 4000
	rate := func(order results.Order, adjusted bool) float64 {
		rng := rand.New(rand.NewPCG(9, 1))
		m := simMachine{variants: 5, rounds: 3, noise: 0.015, drift: -0.03, order: order}
		alarms := 0
		for range trials {
			for _, c := range verdicts(m.run(rng, nil)) {
				if (adjusted && c.Significant) || (!adjusted && c.PValue < stats.Alpha) {
					alarms++
					break
				}
			}
		}
		return float64(alarms) / trials
	}
	limit := stats.Alpha + 2*binomialSE(stats.Alpha, trials)
	design := rate(results.OrderRandomized, true)
	t.Logf("family-wise false alarms: randomized+holm %.3f (limit %.3f)", design, limit)
	if design > limit {
		t.Errorf("randomized blocks + Holm: %.3f of A/A runs call a variant significant, want ≤ %.3f", design, limit)
	}
	for _, tt := range []struct {
		name     string
		order    results.Order
		adjusted bool
	}{
		{"sequential, unadjusted", results.OrderSequential, false},
		{"sequential, holm", results.OrderSequential, true},
		{"randomized, unadjusted", results.OrderRandomized, false},
	} {
		got := rate(tt.order, tt.adjusted)
		t.Logf("family-wise false alarms: %s %.3f", tt.name, got)
		if got <= limit {
			t.Errorf("%s: %.3f of A/A runs call a variant significant; the simulation should show it above %.3f, or the design would not matter", tt.name, got, limit)
		}
	}
}

// TestSimPowerAtMDE: an effect as large as the MDE is found with
// probability Power. Twice: the MDE planned from the true noise (what
// RepsFor uses), and the MDE a run reports from its own noisy estimate of
// the noise, planted into a fresh run. One of four comparisons carries
// the effect; the others are null and share Holm's adjustment.
func TestSimPowerAtMDE(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 4000
	for _, rounds := range []int{3, 5} {
		m := simMachine{variants: 5, rounds: rounds, noise: 0.015, order: results.OrderRandomized}
		family := m.variants - 1
		rng := rand.New(rand.NewPCG(7, uint64(rounds)))
		plannedMDE := math.Log1p(stats.PlannedMDEPct(m.noise*100, rounds, family) / 100)
		hitPlanned, hitReported := 0, 0
		for range trials {
			effects := make([]float64, m.variants)
			effects[1] = plannedMDE
			if verdicts(m.run(rng, effects))[0].Significant {
				hitPlanned++
			}
			reported := verdicts(m.run(rng, nil))[0]
			if !reported.HasMDE {
				t.Fatalf("no MDE for a comparison of %d repetitions: %+v", rounds, reported)
			}
			effects[1] = math.Log1p(reported.MDEPct / 100)
			if verdicts(m.run(rng, effects))[0].Significant {
				hitReported++
			}
		}
		limit := stats.Power - 2*binomialSE(stats.Power, trials)
		for _, got := range []struct {
			what string
			hits int
		}{{"planned", hitPlanned}, {"reported", hitReported}} {
			p := float64(got.hits) / trials
			t.Logf("%d rounds: power at the %s MDE: %.3f (planned MDE %.2f %%)", rounds, got.what, p, math.Expm1(plannedMDE)*100)
			if p < limit {
				t.Errorf("%d rounds: an effect at the %s MDE is found %.3f of the time, want ≥ %.3f", rounds, got.what, p, limit)
			}
		}
	}
}

// TestSimRepsFor: the repetitions RepsFor asks for find the effect with
// probability Power, and one fewer does not.
func TestSimRepsFor(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 4000
	noise, effect, family := 1.5, 0.03, 4
	n, ok := stats.RepsFor(noise, effect, family, 100)
	if !ok || n < 3 {
		t.Fatalf("RepsFor(%v %%, %v, %d) = %d %v, want a count of at least 3", noise, effect, family, n, ok)
	}
	power := func(rounds int) float64 {
		rng := rand.New(rand.NewPCG(5, uint64(rounds)))
		m := simMachine{variants: family + 1, rounds: rounds, noise: noise / 100, order: results.OrderRandomized}
		effects := make([]float64, m.variants)
		effects[1] = math.Log1p(effect)
		hits := 0
		for range trials {
			if verdicts(m.run(rng, effects))[0].Significant {
				hits++
			}
		}
		return float64(hits) / trials
	}
	se := 2 * binomialSE(stats.Power, trials)
	if p := power(n); p < stats.Power-se {
		t.Errorf("with RepsFor's %d repetitions a %.0f %% effect is found %.3f of the time, want ≥ %.3f", n, effect*100, p, stats.Power-se)
	}
	if p := power(n - 1); p >= stats.Power {
		t.Errorf("with %d repetitions, one fewer than RepsFor's, the effect is found %.3f of the time: RepsFor asks for more than needed", n-1, p)
	}
	if _, ok := stats.RepsFor(noise, effect, family, n-1); ok {
		t.Errorf("RepsFor with a limit of %d says it is enough, want false", n-1)
	}
}

// TestSimEquivalence: when the true difference is exactly the margin, a
// run must rarely claim "no difference larger than the margin": at most
// α/Family per comparison, the level of its two one-sided tests. And for
// identical variants with enough repetitions, equivalence is the usual
// verdict.
func TestSimEquivalence(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 4000
	m := simMachine{variants: 5, rounds: 10, noise: 0.01, order: results.OrderRandomized}
	family := m.variants - 1
	rng := rand.New(rand.NewPCG(3, 3))
	wrong, right := 0, 0
	for range trials {
		effects := make([]float64, m.variants)
		effects[1] = math.Log1p(results.DefaultEquivalence)
		if verdicts(m.run(rng, effects))[0].Equivalent {
			wrong++
		}
		if c := verdicts(m.run(rng, nil))[0]; c.Equivalent && !c.Significant {
			right++
		}
	}
	level := stats.Alpha / float64(family)
	if got, limit := float64(wrong)/trials, level+2*binomialSE(level, trials); got > limit {
		t.Errorf("a true +%.0f %% difference is called equivalent within ±%.0f %% %.4f of the time, want ≤ %.4f", results.DefaultEquivalence*100, results.DefaultEquivalence*100, got, limit)
	}
	if got := float64(right) / trials; got < 0.5 {
		t.Errorf("identical variants (1 %% noise, 10 rounds) are called equivalent within ±2 %% only %.3f of the time", got)
	}
}

// TestSimSweepFalseAlarms is the A/A test of a sweep's claims: k
// identical values, each measured `rounds` times with 1.5 % noise in
// randomized blocks. A sweep makes a false claim when it names a best
// (significantly faster than every other value) or leaves any value off
// its plateau (some value significantly faster than it); either must
// happen in at most α of runs, whatever k. The baseline's veto (a claim
// about the baseline must agree with its comparison) only removes
// claims, so the rule is tested without it, as the search uses it
// (PairPlateau). The simulation also runs the rule this replaced, Holm
// over the top's k−1 comparisons alone, to show that it can tell: the top
// is the largest of k means, so with 11 values that rule put a value off
// the plateau in about one run in nine.
func TestSimSweepFalseAlarms(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 2000
	limit := stats.Alpha + 2*binomialSE(stats.Alpha, trials)
	for _, tt := range []struct{ variants, rounds int }{{3, 2}, {5, 3}, {11, 3}} {
		rng := rand.New(rand.NewPCG(11, uint64(tt.variants)))
		m := simMachine{variants: tt.variants, rounds: tt.rounds, noise: 0.015, order: results.OrderRandomized}
		best, offPlateau, search, oldBest, oldOff := 0, 0, 0, 0, 0
		for range trials {
			rates := m.run(rng, nil)
			j := plateauOf(rates)
			if j.Best >= 0 {
				best++
			}
			if len(j.Plateau) < tt.variants {
				offPlateau++
			}
			if len(stats.PairPlateau(rates, nil).Plateau) < tt.variants {
				search++
			}
			b, off := oldRule(rates, j.Top)
			oldBest, oldOff = oldBest+b2i(b), oldOff+b2i(off)
		}
		rate := func(n int) float64 { return float64(n) / trials }
		t.Logf("%d identical values × %d rounds: best named %.4f, a value off the plateau %.4f, search plateau %.4f (limit %.4f); the replaced rule: best %.4f, off the plateau %.4f",
			tt.variants, tt.rounds, rate(best), rate(offPlateau), rate(search), limit, rate(oldBest), rate(oldOff))
		for _, got := range []struct {
			what string
			n    int
		}{{"a best is named", best}, {"a value is off the plateau", offPlateau}, {"the search leaves a value off its plateau", search}} {
			if r := rate(got.n); r > limit {
				t.Errorf("%d identical values × %d rounds: %s in %.4f of runs, want ≤ %.4f", tt.variants, tt.rounds, got.what, r, limit)
			}
		}
		if tt.variants == 11 && rate(oldOff) <= limit {
			t.Errorf("the replaced rule puts a value off the plateau in %.4f of A/A runs; the simulation should show it above %.4f, or it cannot tell the rules apart", rate(oldOff), limit)
		}
	}
}

// oldRule is the sweep rule before PairPlateau: the top compared with
// every other value, Holm over those k−1 comparisons; a value is off the
// plateau when its comparison is significant, and the top the best when
// every one is.
func oldRule(rates [][]float64, top int) (best, off bool) {
	var comps []stats.Comparison
	var ps []float64
	for i, r := range rates {
		if i != top {
			c := stats.Compare(rates[top], r)
			comps, ps = append(comps, c), append(ps, c.PValue)
		}
	}
	best = true
	for k, p := range stats.Holm(ps) {
		below := p < stats.Alpha && comps[k].DeltaPct < 0
		best, off = best && below, off || below
	}
	return best, off
}

// TestSimSweepFindsBest plants a known effect: one of five values 12 %
// faster than the others (1.5 % noise, three rounds: about ten standard
// errors of a difference). The rule that holds identical values at α must
// still name it the best in most runs, or calibration was bought by never
// claiming anything; and it must never name another value. (The price of
// calibration is power: the same run with a 6 % effect names it in about a
// quarter of runs, where the replaced rule did in three quarters, and
// with eleven values a best needs more repetitions. plan-reps sizes runs
// for the baseline comparisons, which stay more powerful.)
func TestSimSweepFindsBest(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 1000
	m := simMachine{variants: 5, rounds: 3, noise: 0.015, order: results.OrderRandomized}
	rng := rand.New(rand.NewPCG(13, 5))
	effects := []float64{0, 0, math.Log(1.12), 0, 0}
	found, wrong := 0, 0
	for range trials {
		j := plateauOf(m.run(rng, effects))
		switch j.Best {
		case 2:
			found++
		case -1:
		default:
			wrong++
		}
	}
	p := float64(found) / trials
	t.Logf("a value 12 %% faster than four others is named the best in %.3f of runs, another one in %d", p, wrong)
	if p < 0.9 || wrong > 0 {
		t.Errorf("the faster value is named the best in %.3f of runs (want ≥ 0.9) and another value in %d (want 0)", p, wrong)
	}
}

// TestSimCICoverage: the 95 % CI of the geometric mean covers the true
// one (the rate without noise) in 95 % of runs, with two, three and five
// repetitions of 10 % log-normal noise; its lower bound is never below
// zero. The raw-scale interval it replaced went below zero in 257 of the
// issue's 16,608 intervals, 217 of them at n = 2.
func TestSimCICoverage(t *testing.T) {
	fixture.SingleGoroutine(t)
	const trials = 2000
	se := 2 * binomialSE(0.95, trials)
	for _, n := range []int{2, 3, 5} {
		rng := rand.New(rand.NewPCG(17, uint64(n)))
		covered := 0
		xs := make([]float64, n)
		for range trials {
			for i := range xs {
				xs[i] = 1000 * math.Exp(0.1*rng.NormFloat64())
			}
			s := stats.Summarize(xs)
			if !s.HasCI || !(s.CI95Low > 0) {
				t.Fatalf("Summarize(%v) = %+v: want a positive interval", xs, s)
			}
			if s.CI95Low <= 1000 && 1000 <= s.CI95High {
				covered++
			}
		}
		got := float64(covered) / trials
		t.Logf("n = %d: the 95 %% CI covers the true geometric mean in %.3f of runs", n, got)
		if math.Abs(got-0.95) > se {
			t.Errorf("n = %d: the 95 %% CI covers the true geometric mean in %.3f of runs, want 0.95 ± %.3f", n, got, se)
		}
	}
}
