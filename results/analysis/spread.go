package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// Spread is how evenly one repetition's groups performed; Pct is (Max-Min)/Mean in %.
type Spread struct {
	Min, Max, Mean, Pct float64
	MinIndex, MaxIndex  int
}

// GroupSpread returns the groups' Spread (the first of equals); zero for none.
func GroupSpread(groups []results.Group) Spread {
	if len(groups) == 0 {
		return Spread{}
	}
	byRate := func(a, b results.Group) int { return cmp.Compare(a.Rate(), b.Rate()) }
	lo, hi := slices.MinFunc(groups, byRate), slices.MaxFunc(groups, byRate)
	s := Spread{Min: lo.Rate(), MinIndex: lo.Index, Max: hi.Rate(), MaxIndex: hi.Index}
	for i := range groups {
		s.Mean += groups[i].Rate()
	}
	s.Mean /= float64(len(groups))
	if s.Mean > 0 {
		s.Pct = (s.Max - s.Min) / s.Mean * 100
	}
	return s
}

// A repetition inflates the MDE when its removal leaves less than outlierShare of the log-rate
// spread and it is outlierOff off the others' mean (removing one of three alike often halves it).
const (
	outlierShare = 0.5
	outlierOff   = 0.05
)

// spreadRep indexes the repetition of v that alone makes most of its spread; -1 when none does.
func spreadRep(v *results.Variant) int {
	rates := v.Rates()
	all, ok := stats.NoisePct(rates) // the spread of ln rate
	if len(rates) < 3 || !ok || all == 0 {
		return -1
	}
	best, bestSD, bestOff := -1, math.Inf(1), 0.0
	for i, r := range rates {
		rest := slices.Delete(slices.Clone(rates), i, i+1)
		if sd, _ := stats.NoisePct(rest); sd < bestSD {
			best, bestSD, bestOff = i, sd, math.Abs(r/stats.Summarize(rest).GeoMean-1)
		}
	}
	if bestSD >= outlierShare*all || bestOff <= outlierOff {
		return -1
	}
	return best
}

// mdeSpread names the repetitions that inflate the MDE of v's comparison: "baseline rep 2 (35,120.0 req/s)".
func mdeSpread(base, v *results.Variant) notes.Note {
	var reps []notes.Note
	for _, w := range []*results.Variant{base, v} {
		if i := spreadRep(w); i >= 0 {
			reps = append(reps, notes.New(notes.SpreadRep, "variant", w.Name, "rep", w.Reps[i].Index+1, "rate", w.Reps[i].Total.Rate()))
		}
	}
	return noteIf(len(reps) > 0, notes.MDESpread, "reps", reps)
}
