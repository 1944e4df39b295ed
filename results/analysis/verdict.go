package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// CheckRep says why the repetition whose total is t failed; nil for a good one.
func CheckRep(t *results.Group, maxErrors float64) *results.Failure {
	if t.Succeeded() == 0 {
		f := &results.Failure{Code: results.FailNoSuccess, Errors: t.Errors.Total()}
		if u := t.Outside.Unanswered; u.Total() > 0 {
			f.Unanswered = &u
		}
		return f
	}
	if share := t.ErrorShare(); share > maxErrors {
		return &results.Failure{Code: results.FailErrors, Share: share, Max: maxErrors}
	}
	return nil
}

// PartialLine says what window p measured until an interrupt or a lost worker cut it short.
func PartialLine(variant string, p *results.Rep) notes.Note {
	t := &p.Total
	n := notes.New(notes.PartialWindow, "variant", variant, "rep", p.Index+1, "seconds", t.Window.Length().Seconds(),
		"planned", p.PartialOf.Round(time.Millisecond), "requests", t.Requests, "rate", t.Rate(), "errors", t.Errors.Total())
	if l := p.Lost; l != nil {
		n.Args["lost_group"], n.Args["lost_host"], n.Args["lost_why"], n.Args["lost_requests"] = l.Group, l.Host, l.Why, l.Requests
	}
	return n
}

// missedLine names rep's groups that missed more than MaxMissedShare of their starts, and why: client-bound,
// CPUs taken (as busy, by others), else slots exhausted.
func missedLine(rep *results.Rep, all []GroupCPU) notes.Note {
	var parts []notes.Note
	for _, g := range rep.Groups {
		if g.MissedShare() <= results.MaxMissedShare {
			continue
		}
		n := notes.New(notes.MissedGroup, "index", g.Index, "limit", results.SlotsExhausted, "share", g.MissedShare(),
			"slots", g.Slots, "measured", false)
		if k := slices.IndexFunc(all, func(c GroupCPU) bool { return c.Index == g.Index }); k >= 0 {
			gc := &all[k]
			switch {
			case gc.ClientBound:
				n.Args["limit"] = results.ClientBound
			case gc.Busy >= results.ClientBoundBusy:
				n.Args["limit"] = results.CPUsTaken
			}
			n.Args["measured"], n.Args["own"], n.Args["busy"] = true, gc.Own, gc.Busy
			n.Args["kaeload"], n.Args["interrupts"] = gc.Kaeload, gc.Interrupts
		}
		parts = append(parts, n)
	}
	return noteIf(len(parts) > 0, notes.MissedStarts, "groups", parts)
}

// capacities are every variant's capacity search and the line of their knees; nil and zero for another run.
func capacities(r *results.Run) ([]results.Capacity, notes.Note) {
	if r.Capacity == nil {
		return nil, notes.Note{}
	}
	out := make([]results.Capacity, 0, len(r.Variants))
	for i := range r.Variants {
		c := results.Capacity{Variant: i}
		for j := range r.Variants[i].Reps {
			if rep := &r.Variants[i].Reps[j]; rep.Step != nil {
				c.Steps = append(c.Steps, rep)
				switch st := rep.Step; {
				case st.Pass && st.Rate > c.Knee:
					c.Knee = st.Rate
				case !st.Pass && (c.Fail == 0 || st.Rate < c.Fail):
					c.Fail = st.Rate
				}
			}
		}
		c.BelowFrom = len(c.Steps) > 0 && c.Knee == 0
		c.AtMax = c.Fail == 0 && c.Knee > 0 && c.Knee >= r.Capacity.Max
		out = append(out, c)
	}
	base, _ := r.BaselineVariant() // -1 when not measured: no differences; out[i] is variant i's
	found := func(c *results.Capacity) bool { return c.Knee > 0 && !c.BelowFrom && !c.AtMax }
	knees := make([]notes.Note, 0, len(out))
	for i, c := range out {
		k := notes.New(notes.CapacityKnee, "variant", r.Variants[i].Name, "knee", c.Knee, "from", r.Capacity.From,
			"steps", len(c.Steps), "below_from", c.BelowFrom, "at_max", c.AtMax)
		if i != base && base >= 0 && found(&out[base]) && found(&c) {
			k.Args["delta"] = c.Knee/out[base].Knee - 1
		}
		knees = append(knees, k)
	}
	return out, notes.New(notes.Capacity, "spec", *r.Capacity, "knees", knees)
}

// ThresholdCheck is one threshold checked against one variant; not Measured, it is crossed.
type ThresholdCheck struct {
	Threshold results.Threshold `json:"threshold"`
	Variant   string            `json:"variant"`
	Measured  bool              `json:"measured"`
	Value     float64           `json:"value"` // in the threshold's unit
	Passed    bool              `json:"passed"`
}

// Shown is the figure in its metric's unit ("12,345.6 req/s"), or "not measured".
func (c *ThresholdCheck) Shown() notes.Note {
	return notes.New(notes.ThresholdFigure, "metric", c.Threshold.Metric, "value", c.Value,
		"measured", c.Measured)
}

// Line is c's verdict: "PASS  req/s >= 100000: default 123,456.7 req/s" or "CROSSED  …".
func (c *ThresholdCheck) Line() notes.Note {
	return notes.New(notes.ThresholdChecked, "passed", c.Passed, "check", crossedLine(c))
}

// checkThresholds checks every threshold against every variant (a MetricVs against its pair).
func checkThresholds(r *results.Run, inside [][]diagnosis.Repetition, vs []VariantSummary) []ThresholdCheck {
	var out []ThresholdCheck
	for _, t := range r.Thresholds {
		for i := range vs {
			c := ThresholdCheck{Threshold: t, Variant: vs[i].Name}
			if t.Metric == results.MetricVs {
				c.Variant = t.Variant + " vs " + t.Against
				c.Value, c.Measured = measureVs(vs, t)
			} else if len(r.Variants[i].Reps) > 0 {
				c.Value, c.Measured = measure(t, &vs[i], inside[i])
			}
			v, b := c.Value, t.Value
			ops := map[string]bool{"<": v < b, "<=": v <= b, ">": v > b, ">=": v >= b, "==": v == b, "!=": v != b}
			c.Passed = c.Measured && ops[t.Op]
			if out = append(out, c); t.Metric == results.MetricVs {
				break
			}
		}
	}
	return out
}

func measureVs(vs []VariantSummary, t results.Threshold) (float64, bool) {
	a := slices.IndexFunc(vs, func(s VariantSummary) bool { return s.Name == t.Variant })
	b := slices.IndexFunc(vs, func(s VariantSummary) bool { return s.Name == t.Against })
	if a < 0 || b < 0 || vs[a].Stats.N == 0 || vs[b].Stats.N == 0 || vs[b].Stats.Mean <= 0 {
		return 0, false
	}
	x := vs[a].Stats.Mean/vs[b].Stats.Mean - 1
	return x, !math.IsNaN(x) && !math.IsInf(x, 0)
}

// measure returns the figure of s that t bounds; a probe that failed in some windows is trusted in none.
func measure(t results.Threshold, s *VariantSummary, inside []diagnosis.Repetition) (float64, bool) {
	switch t.Metric {
	case results.MetricRate:
		return s.Stats.Mean, true
	case results.MetricErrors:
		return float64(s.Errors.Total()), true
	case results.MetricErrorShare:
		return s.ErrorShare(), true
	case results.MetricClientBound:
		return float64(b2i(s.ClientBoundReps > 0)), true
	case results.MetricServerSaturated: // 0 when no repetition was judged
		return float64(b2i(s.SaturationReps > 0 && s.NotSaturatedReps == 0)), s.SaturationReps > 0
	case results.MetricLatency:
		h := map[string]*results.Histogram{"connect": s.Connect, "handshake": s.Handshake, "ttfb": s.TTFB, "total": s.Total}[t.Latency]
		if results.EmptyHistogram(h) {
			return 0, false
		}
		return float64(h.ValueAtQuantile(t.Quantile)), true
	case results.MetricProbe, results.MetricProbePerRequest:
		i := slices.IndexFunc(s.Probes, func(p ProbeSummary) bool { return p.Name == t.Probe })
		if i < 0 || s.Probes[i].Failed > 0 || s.Probes[i].N == 0 {
			return 0, false
		}
		if t.Metric == results.MetricProbe {
			return s.Probes[i].MeanDelta, true
		}
		if per := s.Probes[i].PerRequest; per != nil {
			return *per, true
		}
		return 0, false
	case results.MetricListenOverflows, results.MetricStalls, results.MetricDiagnoses:
	default:
		return 0, false
	}
	// A timeline metric needs each repetition's figure; no timeline, unread overflows, unjudged stalls: none.
	var sum float64
	for _, d := range inside {
		n, ok := float64(len(d.Diagnoses)), !d.NoTimeline
		switch t.Metric {
		case results.MetricListenOverflows:
			if ok = ok && d.ListenOverflows != nil; ok {
				n = float64(*d.ListenOverflows)
			}
		case results.MetricStalls:
			n, ok = float64(len(d.Stalls)), ok && d.StallsJudged
		}
		if !ok {
			return 0, false
		}
		sum += n
	}
	return sum, len(inside) > 0
}

// crossedLine is c's expression, variant and figure: the line of a crossed threshold.
func crossedLine(c *ThresholdCheck) notes.Note {
	return notes.New(notes.ThresholdCrossed, "expr", c.Threshold.Expr, "variant", c.Variant,
		"shown", c.Shown().String())
}

// caveatsOf lists what v's figures measured besides the server, most serious first.
func caveatsOf(v *VariantSummary, baseline bool) []notes.Note {
	flags := []notes.Code{notes.ClientBound, notes.OtherLoad, notes.SharedCPUs, notes.ServerOtherLoad,
		notes.Misaligned}
	reps := []int{v.ClientBoundReps, v.OtherLoadReps, v.SharedCPUReps, v.ServerOtherLoadReps, v.MisalignedReps}
	var cs []notes.Note
	for k, flag := range flags {
		if n := v.Stats.N; reps[k] > 0 && n > 0 {
			cs = append(cs, notes.New(notes.Caveat, "reps", reps[k], "n", n, "flag", string(flag), "baseline", baseline))
		}
	}
	return cs
}

// Misaligned reports whether rep's groups' windows started or ended over 1 % apart.
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
			all = append(all, handshakeCaveat(v, &s.Variants[b]), otherLoadCaveat(v, &s.Variants[b]))
			if v.Comparison.HasMDE {
				v.MDESpread = mdeSpread(&r.Variants[b], &r.Variants[i])
			}
		}
		all = slices.DeleteFunc(all, notes.Note.IsZero)
		v.VerdictCaveat = noteIf(len(all) > 0, notes.Caveats, "notes", all)
	}
}

// handshakeCaveat names the handshake's parts that differ from the baseline's (measured too).
func handshakeCaveat(own, base *VariantSummary) notes.Note {
	mostNegotiated := func(v *VariantSummary) (results.Handshake, bool) {
		top := ranked(v.Negotiated, strings.Compare)
		if len(top) == 0 || v.Negotiated[top[0]] == 0 {
			return results.Handshake{}, false
		}
		return results.ParseHandshake(top[0])
	}
	h, hok := mostNegotiated(own)
	b, bok := mostNegotiated(base)
	d := h.Differences(b)
	return noteIf(hok && bok && len(d) > 0, notes.HandshakeDiffers, "parts", strings.Join(d, ", "),
		"own", h.String(), "base", b.String())
}

// otherLoadCaveat cautions a comparison whose sides' other load on the server's CPUs differs by
// more than its MDE: a nice'd loop taking 7 % of a saturated server moves 3 % effects.
func otherLoadCaveat(v, base *VariantSummary) notes.Note {
	o, _ := stats.MeanStdDev(v.serverOthers)
	b, _ := stats.MeanStdDev(base.serverOthers)
	apart := len(v.serverOthers) > 0 && len(base.serverOthers) > 0 && v.Comparison.HasMDE &&
		100*math.Abs(o-b) > v.Comparison.MDEPct
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
