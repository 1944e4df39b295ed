package analysis

import (
	"math"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// DriftSummary shows how the rates moved over the rounds (round r is every variant's repetition
// r): a change of the machine over the run shows as a trend every variant shares. RoundPct is the
// variants' mean geometric deviation from their own mean in a round, %; TrendPct the change from
// the first round to the last, %, by least squares with a level per variant.
type DriftSummary struct {
	Rounds   int
	Cells    [][]RoundCell // [variant][round]
	RoundPct []float64
	RoundHas []bool
	TrendPct float64
	HasTrend bool // two rounds or more
	// Controlled is false for a sequential order, where drift lands between variants.
	Controlled, Unknown bool
}

// RoundCell is one variant's repetition in one round (OK: there is one).
type RoundCell struct {
	Rate       float64
	OK, Failed bool
}

func drift(r *results.Run) DriftSummary {
	d := DriftSummary{Controlled: r.Order != results.OrderSequential, Unknown: r.Order == ""}
	for _, v := range r.Variants {
		for _, rep := range v.Reps {
			d.Rounds = max(d.Rounds, rep.Index+1)
		}
	}
	d.RoundPct, d.RoundHas = make([]float64, d.Rounds), make([]bool, d.Rounds)
	counts := make([]int, d.Rounds)
	// Least squares of ln(rate) on the round with one intercept per
	// variant: the slope is Σ(x−x̄ᵥ)(y−ȳᵥ) / Σ(x−x̄ᵥ)² over every variant.
	var sxy, sxx float64
	for _, v := range r.Variants {
		cells := make([]RoundCell, d.Rounds)
		var xs, ys []float64
		for _, rep := range v.Reps {
			if rep.Index >= 0 {
				cells[rep.Index] = RoundCell{Rate: rep.Total.Rate(), OK: true, Failed: rep.Failed != nil}
			}
		}
		for round, c := range cells {
			if c.OK && c.Rate > 0 {
				xs, ys = append(xs, float64(round)), append(ys, math.Log(c.Rate))
			}
		}
		d.Cells = append(d.Cells, cells)
		mx, _ := stats.MeanStdDev(xs) // NaN for none, then unused
		my, _ := stats.MeanStdDev(ys)
		for k := range xs {
			sxy += (xs[k] - mx) * (ys[k] - my)
			sxx += (xs[k] - mx) * (xs[k] - mx)
			d.RoundPct[int(xs[k])] += ys[k] - my
			counts[int(xs[k])]++
		}
	}
	for round, n := range counts {
		if d.RoundHas[round] = n > 0; n > 0 {
			d.RoundPct[round] = math.Expm1(d.RoundPct[round]/float64(n)) * 100
		}
	}
	if sxx > 0 {
		d.TrendPct, d.HasTrend = math.Expm1(sxy/sxx*float64(d.Rounds-1))*100, true
	}
	return d
}

// driftWarnings: a sequential order does not control drift; a trend may make or hide a difference.
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
	for _, v := range s.Variants {
		if c := v.Comparison; !v.IsBaseline && c.Significant && math.Abs(d.TrendPct) >= math.Abs(c.DeltaPct) {
			names, deltas = append(names, v.Name), append(deltas, c.DeltaPct)
		}
	}
	if len(names) > 0 {
		ws = append(ws, notes.New(notes.DriftTrend, "trend", d.TrendPct, "rounds", d.Rounds, "names", names, "deltas", deltas))
	}
	return ws
}
