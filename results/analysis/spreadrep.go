package analysis

import (
	"math"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// A repetition whose removal leaves the spread of its variant's log
// rates at less than outlierShare of the spread with it, and whose rate
// is more than outlierOff away from the mean of the others, is the one
// that inflates the comparison's MDE, and is named. (Of three alike
// repetitions, removing one often halves the spread: the second rule
// keeps those unnamed.)
const (
	outlierShare = 0.5
	outlierOff   = 0.05
)

// spreadRep returns the index of the repetition of v that alone makes
// most of the spread of its log rates (removing it leaves less than
// outlierShare of the standard deviation, and it is more than outlierOff
// off the others), or -1 when none does or v has
// fewer than three repetitions (with two, neither can be told from the
// other).
func spreadRep(v *results.Variant) int {
	rates := v.Rates()
	if len(rates) < 3 {
		return -1
	}
	logs := make([]float64, 0, len(rates))
	for _, r := range rates {
		if r <= 0 {
			return -1
		}
		logs = append(logs, math.Log(r))
	}
	all := sd(logs)
	if all == 0 {
		return -1
	}
	best, bestSD, bestOff := -1, math.Inf(1), 0.0
	for i := range logs {
		rest := append(append([]float64(nil), logs[:i]...), logs[i+1:]...)
		if s := sd(rest); s < bestSD {
			var m float64
			for _, x := range rest {
				m += x
			}
			best, bestSD, bestOff = i, s, math.Abs(math.Expm1(logs[i]-m/float64(len(rest))))
		}
	}
	if bestSD >= outlierShare*all || bestOff <= outlierOff {
		return -1
	}
	return best
}

// sd is the sample standard deviation of xs (len ≥ 2).
func sd(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// mdeSpread names the repetitions that inflate the MDE of v's comparison
// with base: "baseline rep 2 (35,120.0 req/s)"; zero when no single
// repetition of either does (spreadRep).
func mdeSpread(base, v *results.Variant) notes.Note {
	var reps []notes.Note
	for _, w := range []*results.Variant{base, v} {
		if w == nil {
			continue
		}
		if i := spreadRep(w); i >= 0 {
			reps = append(reps, notes.New(notes.SpreadRep, "variant", w.Name, "rep", w.Reps[i].Index+1, "rate", w.Reps[i].Total.Rate()))
		}
	}
	return joinedAs(notes.MDESpread, "reps", reps)
}
