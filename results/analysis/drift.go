package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
	"math"
)

// DriftSummary shows how the rates moved over the run's rounds: round r
// is every variant's repetition r (Rep.Index), so with a randomized or
// interleaved order a round is one stretch of time in which each variant
// ran once, and a change of the machine over the run (thermal state,
// neighbours on a shared host, a filling disk) shows as a trend over
// rounds that every variant shares.
type DriftSummary struct {
	// Rounds is the number of rounds (the highest Rep.Index + 1).
	Rounds int
	// Cells holds, per variant (in Run.Variants order) and round, the
	// repetition's rate.
	Cells [][]RoundCell
	// RoundPct is, per round, the mean over the variants measured in it of
	// their rate's deviation from their own mean (geometric), in percent:
	// the machine's state in that round, whatever the variants' speeds.
	// RoundHas says whether any variant had a positive rate in the round.
	RoundPct []float64
	RoundHas []bool
	// TrendPct is the change over the run from the first round to the
	// last, in percent, by least squares over rounds with a level per
	// variant (the slope every variant shares); HasTrend is false with
	// fewer than two rounds of positive rates.
	TrendPct float64
	HasTrend bool
	// Controlled is false when the order lets drift land between variants
	// (sequential, where each variant's windows run together); Unknown is
	// true for a run that did not record its order.
	Controlled bool
	Unknown    bool
}

// RoundCell is one variant's repetition in one round.
type RoundCell struct {
	// Rate is the repetition's total rate; OK is false when the variant
	// has no repetition in the round.
	Rate float64
	OK   bool
	// Failed is true for a failed repetition (Rep.Failed).
	Failed bool
}

// drift computes the DriftSummary of r.
func drift(r *results.Run) DriftSummary {
	d := DriftSummary{Controlled: r.Order != results.OrderSequential, Unknown: r.Order == ""}
	for i := range r.Variants {
		for _, rep := range r.Variants[i].Reps {
			d.Rounds = max(d.Rounds, rep.Index+1)
		}
	}
	d.Cells = make([][]RoundCell, len(r.Variants))
	for i := range r.Variants {
		d.Cells[i] = make([]RoundCell, d.Rounds)
		for _, rep := range r.Variants[i].Reps {
			if rep.Index >= 0 {
				d.Cells[i][rep.Index] = RoundCell{Rate: rep.Total.Rate(), OK: true, Failed: rep.Failed != nil}
			}
		}
	}
	d.RoundPct, d.RoundHas = make([]float64, d.Rounds), make([]bool, d.Rounds)
	sums, counts := make([]float64, d.Rounds), make([]int, d.Rounds)
	// Least squares of ln(rate) on the round with one intercept per
	// variant: the slope is Σ(x−x̄ᵥ)(y−ȳᵥ) / Σ(x−x̄ᵥ)² over every variant.
	var sxy, sxx float64
	for i := range d.Cells {
		var xs, ys []float64
		for round, c := range d.Cells[i] {
			if c.OK && c.Rate > 0 {
				xs, ys = append(xs, float64(round)), append(ys, math.Log(c.Rate))
			}
		}
		if len(xs) == 0 {
			continue
		}
		mx, _ := stats.MeanStdDev(xs)
		my, _ := stats.MeanStdDev(ys)
		for k := range xs {
			sxy += (xs[k] - mx) * (ys[k] - my)
			sxx += (xs[k] - mx) * (xs[k] - mx)
			round := int(xs[k])
			sums[round] += ys[k] - my
			counts[round]++
		}
	}
	for round := range sums {
		if counts[round] > 0 {
			d.RoundPct[round] = math.Expm1(sums[round]/float64(counts[round])) * 100
			d.RoundHas[round] = true
		}
	}
	if sxx > 0 {
		d.TrendPct = math.Expm1(sxy/sxx*float64(d.Rounds-1)) * 100
		d.HasTrend = true
	}
	return d
}

// driftWarnings says what a reader of s must know about drift: that a
// sequential order does not control it, and when the trend over the
// rounds is as large as a difference called significant, since drift of
// that size could make or hide such a difference.
func driftWarnings(r *results.Run, s *RunSummary) notes.List {
	var ws notes.List
	d := &s.Drift
	if !d.Controlled && len(r.Variants) > 1 {
		ws = append(ws, notes.New(notes.DriftUncontrolled))
	}
	if !d.HasTrend {
		return ws
	}
	var names []string
	var deltas []float64
	for i := range s.Variants {
		v := &s.Variants[i]
		c := v.Comparison
		if v.IsBaseline || !c.Significant || math.Abs(d.TrendPct) < math.Abs(c.DeltaPct) {
			continue
		}
		names, deltas = append(names, v.Name), append(deltas, c.DeltaPct)
	}
	if len(names) > 0 {
		ws = append(ws, notes.New(notes.DriftTrend, "trend", d.TrendPct, "rounds", d.Rounds, "names", names, "deltas", deltas))
	}
	return ws
}
