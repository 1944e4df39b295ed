package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// caveatsOf lists what v's figures measured besides the server, most serious first.
func caveatsOf(v *VariantSummary, baseline bool) []notes.Note {
	n := v.Stats.N
	var cs []notes.Note
	add := func(reps int, flag notes.Code) {
		if reps > 0 && n > 0 {
			cs = append(cs, notes.New(notes.Caveat, "reps", reps, "n", n, "flag", string(flag), "baseline", baseline))
		}
	}
	add(v.ClientBoundReps, notes.ClientBound)
	add(v.OtherLoadReps, notes.OtherLoad)
	add(v.SharedCPUReps, notes.SharedCPUs)
	add(v.ServerOtherLoadReps, notes.ServerOtherLoad)
	add(v.MisalignedReps, notes.Misaligned)
	return cs
}

// Misaligned: rep's groups' windows started or ended over 1 % apart.
func Misaligned(rep *results.Rep) bool {
	s := rep.WindowSpread
	return s != nil && 100*max(s.Start, s.End) > rep.Total.Window.Length()
}

// noteIf is notes.New(code, kv...) when ok, else the zero Note.
func noteIf(ok bool, code notes.Code, kv ...any) notes.Note {
	if !ok {
		return notes.Note{}
	}
	return notes.New(code, kv...)
}

// setCaveats: a difference from a flagged baseline, or from a differing one, is not the server's either.
func setCaveats(r *results.Run, s *RunSummary) {
	b := s.Baseline
	var base []notes.Note
	if b >= 0 {
		base = caveatsOf(&s.Variants[b], true)
	}
	for i := range s.Variants {
		v := &s.Variants[i]
		own := caveatsOf(v, false)
		v.Caveat = noteIf(len(own) > 0, notes.Caveats, "notes", own)
		if v.IsBaseline {
			continue
		}
		all := slices.Concat(own, base)
		if b >= 0 {
			all = append(all, handshakeCaveat(&r.Variants[i], &r.Variants[b]), otherLoadCaveat(v, &s.Variants[b]))
			if v.Comparison.HasMDE {
				v.MDESpread = mdeSpread(&r.Variants[b], &r.Variants[i])
			}
		}
		all = slices.DeleteFunc(all, notes.Note.IsZero)
		v.VerdictCaveat = noteIf(len(all) > 0, notes.Caveats, "notes", all)
	}
}

func handshakeOf(v *results.Variant) (results.Handshake, bool) {
	counts := map[string]uint64{}
	for _, rep := range v.Reps {
		for k, n := range rep.Total.Negotiated {
			counts[k] += n
		}
	}
	best := ""
	if ks := ranked(counts, strings.Compare); len(ks) > 0 && counts[ks[0]] > 0 {
		best = ks[0]
	}
	return results.ParseHandshake(best)
}

// handshakeCaveat names the handshake's parts that differ from the baseline's (measured too).
func handshakeCaveat(own, base *results.Variant) notes.Note {
	h, hok := handshakeOf(own)
	b, bok := handshakeOf(base)
	d := h.Differences(b)
	return noteIf(hok && bok && len(d) > 0, notes.HandshakeDiffers, "parts", strings.Join(d, ", "),
		"own", h.String(), "base", b.String())
}

func (v *VariantSummary) serverOthersMean() (float64, bool) {
	return v.serverOthers / float64(max(v.serverOthersReps, 1)), v.serverOthersReps > 0
}

// otherLoadCaveat cautions a comparison whose sides' other load on the server's CPUs differs by
// more than its MDE: a nice'd loop taking 7 % of a saturated server moves 3 % effects.
func otherLoadCaveat(v, base *VariantSummary) notes.Note {
	o, ook := v.serverOthersMean()
	b, bok := base.serverOthersMean()
	apart := ook && bok && v.Comparison.HasMDE && 100*math.Abs(o-b) > v.Comparison.MDEPct
	return noteIf(apart, notes.OtherLoadApart, "own", o, "base", b, "mde", v.Comparison.MDEPct)
}

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
