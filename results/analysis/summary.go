package analysis

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

// RunSummary is what every output says about a run across repetitions.
type RunSummary struct {
	Baseline        int // -1 when not measured: then nothing is compared
	BaselineName    string
	BaselineMissing notes.Note       // notes.BaselineMissing when not measured
	Variants        []VariantSummary // in run order
	Sweeps          []SweepSummary   // series of two variants or more
	Family          int              // tested comparisons with the baseline (Holm)
	Equivalence     float64          // the equivalence margin, a fraction
	Drift           DriftSummary
	Warnings        notes.List // what the statistics say a reader must know
}

// VariantSummary sums up one variant over its repetitions.
type VariantSummary struct {
	Name, Series string
	IsBaseline   bool
	Stats        stats.Stats      // of the repetitions' rates
	Comparison   stats.Comparison // against the baseline, in the run's family
	Errors       uint64
	ErrorShare   float64 // of attempts
	// The repetitions' histograms merged exactly (never nil); Intended is nil in a closed loop.
	Connect, Handshake, TTFB, Total, Intended *results.Histogram
	Scheduled, Missed                         uint64 // open-loop starts
	Probes                                    []ProbeSummary
	ClientBusyMax                             float64 // the busiest group CPU's Busy, if HasClientCPU
	HasClientCPU                              bool
	// Repetitions failed, client-bound, with other load on a group's CPUs, misaligned; with the
	// server's CPUs under other load, shared with a client group, or either (ServerShared: how).
	FailedReps, ClientBoundReps, OtherLoadReps, MisalignedReps int
	ServerOtherLoadReps, SharedCPUReps, ServerSharedReps       int
	ServerShared                                               notes.List
	SaturationReps, NotSaturatedReps                           int // judged; did not load the server
	// Sums over the repetitions whose every group measured client CPU, or with a server CPU reading.
	ClientCPUReps, ServerCPUReps         int
	ClientCPUSeconds, ServerCPUSeconds   float64
	ClientCPURequests, ServerCPURequests uint64
	// Requests per server CPU-second (ServerCPURates), in a family of their own.
	ServerCPUStats        stats.Stats
	ServerCPUComparison   stats.Comparison
	Best, Plateau         bool       // faster than every other of its sweep; none is faster
	MDESpread             notes.Note // the repetitions that alone make most of the MDE's spread
	Caveat, VerdictCaveat notes.Note // what else it measured; and the baseline's, their differences
	serverOthers          []float64  // others' share of the server's CPUs, per repetition measured
}

// ClientMicrosPerRequest is the client's CPU µs per request over the repetitions that measured it.
func (s *VariantSummary) ClientMicrosPerRequest() (float64, bool) {
	if s.ClientCPUReps == 0 || s.ClientCPURequests == 0 {
		return 0, false
	}
	return s.ClientCPUSeconds * 1e6 / float64(s.ClientCPURequests), true
}

// RequestsPerServerCPU is requests per server CPU-second (what offload saves).
func (s *VariantSummary) RequestsPerServerCPU() (float64, bool) {
	if s.ServerCPUReps == 0 || s.ServerCPUSeconds <= 0 {
		return 0, false
	}
	return float64(s.ServerCPURequests) / s.ServerCPUSeconds, true
}

// SweepSummary is one series of swept variants; indexes are into Run.Variants, in chart order.
type SweepSummary struct {
	Series   string
	Keys     []string // the swept keys whose values differ, sorted (all when none do)
	Numeric  bool     // one key whose values all parse (SweptNumber): the variants in order of Values
	Values   []float64
	Variants []int
	Labels   []string // "v" for one key, "k1=v1 k2=v2" else
	// Top has the highest mean of those with two repetitions or more (-1: none); Plateau those it is
	// not significantly faster than (Holm; empty when none was tested); Best is Top when alone on it.
	Top     int
	Plateau []int
	Best    int
	Family  int    // pairs judged
	Caution string // set when a value had fewer than three repetitions
}

// SummarizeRun computes the RunSummary of r; without the baseline it compares nothing.
func SummarizeRun(r *results.Run) *RunSummary { return summarizeRun(r, analyzeReps(r)) }

func summarizeRun(r *results.Run, reps [][]RepReport) *RunSummary {
	base, name := r.BaselineVariant()
	s := &RunSummary{Baseline: base, BaselineName: name, Variants: make([]VariantSummary, len(r.Variants)),
		Equivalence:     cmp.Or(max(r.Equivalence, 0), results.DefaultEquivalence), // unset or not positive
		BaselineMissing: noteIf(base < 0, notes.BaselineMissing, "yet", r.Interrupted || r.Incomplete)}
	rates, perCPU := make([][]float64, len(r.Variants)), make([][]float64, len(r.Variants))
	for i := range r.Variants {
		rates[i], perCPU[i] = r.Variants[i].Rates(), ServerCPURates(&r.Variants[i])
	}
	comps := compareWithBaseline(rates, base, s.Equivalence)
	cpuComps := compareWithBaseline(perCPU, base, s.Equivalence)
	for i := range r.Variants {
		v := &s.Variants[i]
		*v = summarizeVariant(&r.Variants[i], reps[i], i == base)
		v.Comparison, v.ServerCPUStats, v.ServerCPUComparison = comps[i], stats.Summarize(perCPU[i]), cpuComps[i]
		s.Family += b2i(i != base && base >= 0 && comps[i].Tested())
	}
	s.Sweeps = sweeps(r, base, comps)
	searchSweep(r, s)
	for _, sw := range s.Sweeps {
		if sw.Best >= 0 {
			s.Variants[sw.Best].Best = true
		}
		for _, i := range sw.Plateau {
			s.Variants[i].Plateau = true
		}
	}
	setCaveats(r, s)
	s.Drift = drift(r)
	s.Warnings = driftWarnings(r, s)
	return s
}

// compareWithBaseline compares every sample with samples[base] as one Holm family.
func compareWithBaseline(samples [][]float64, base int, margin float64) []stats.Comparison {
	if base < 0 {
		return slices.Repeat([]stats.Comparison{{PValue: 1, PAdjusted: 1, Test: stats.TestNoBaseline}}, len(samples))
	}
	others := slices.Clone(samples)
	others[base] = nil
	out := stats.CompareFamily(samples[base], others, margin)
	out[base] = stats.Comparison{}
	return out
}

// NoComparison says why a run compares nothing; zero when the baseline was measured.
func (s *RunSummary) NoComparison() notes.Note {
	missing := s.BaselineMissing
	return noteIf(!missing.IsZero(), notes.NoComparison, "baseline", s.BaselineName, "missing", missing)
}

// BaselineLine names the baseline for a header: "b (not measured yet)".
func (s *RunSummary) BaselineLine() string {
	if s.BaselineMissing.IsZero() {
		return s.BaselineName
	}
	return s.BaselineName + " (" + s.BaselineMissing.String() + ")"
}

func summarizeVariant(v *results.Variant, reps []RepReport, isBase bool) VariantSummary {
	s := VariantSummary{Name: v.Name, Series: v.Series, IsBaseline: isBase, Stats: stats.Summarize(v.Rates()),
		Probes: summarizeProbes(v)}
	var counts results.Counts
	lat := results.NewLatency()
	for i := range v.Reps {
		rep, ra := &v.Reps[i], &reps[i]
		t := &rep.Total
		counts.Add(&t.Counts)
		lat.Merge(&t.Latency)
		s.Errors += t.Errors.Total()
		s.Scheduled += t.Scheduled
		s.Missed += t.Missed
		s.ClientBoundReps += b2i(len(ra.ClientBoundGroups) > 0)
		s.OtherLoadReps += b2i(len(ra.OtherLoadGroups) > 0)
		s.MisalignedReps += b2i(Misaligned(rep))
		s.FailedReps += b2i(rep.Failed != nil)
		if u := ra.ServerCPUs; u != nil {
			s.ServerOtherLoadReps += b2i(u.OtherLoad)
			s.SharedCPUReps += b2i(len(u.Shared) > 0)
			var why []notes.Note // how: with a client group, or with other load (its busiest process)
			for _, sh := range u.Shared {
				why = append(why, notes.New(notes.ServerShare, "common", sh.Common))
			}
			if u.OtherLoad {
				n := notes.New(notes.ServerBusiest, "cpus", u.CPUs)
				if len(u.Top) > 0 {
					n.Args["comm"], n.Args["pid"], n.Args["nice"] = u.Top[0].Comm, u.Top[0].PID, u.Top[0].Nice
				}
				why = append(why, n)
			}
			s.ServerSharedReps += b2i(len(why) > 0)
			s.ServerShared = s.ServerShared.AppendNew(why...)
			if u.Measured && u.HasServer {
				s.serverOthers = append(s.serverOthers, u.Others)
			}
		}
		s.SaturationReps += b2i(ra.Saturation.Judged)
		s.NotSaturatedReps += b2i(ra.Saturation.NotSaturated)
		if c := ra.ClientCPU; c.Measured > 0 {
			s.HasClientCPU, s.ClientBusyMax = true, max(s.ClientBusyMax, c.BusyMax)
		}
		if us, _, ok := ra.ClientCPU.PerRequest(t.Requests); ok {
			s.ClientCPUReps++
			s.ClientCPUSeconds += us * float64(t.Requests) / 1e6
			s.ClientCPURequests += t.Requests
		}
		if rep.ServerCPU != nil {
			s.ServerCPUReps++
			s.ServerCPUSeconds += rep.ServerCPU.Seconds
			s.ServerCPURequests += t.Requests
		}
	}
	s.ErrorShare = counts.ErrorShare()
	s.Connect, s.Handshake, s.TTFB, s.Total, s.Intended = lat.Connect, lat.Handshake, lat.TTFB, lat.Total, lat.Intended
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sweeps groups the variants of r by Series into SweepSummaries.
func sweeps(r *results.Run, base int, comps []stats.Comparison) []SweepSummary {
	var out []SweepSummary
	for i, v := range r.Variants {
		k := slices.IndexFunc(out, func(s SweepSummary) bool { return s.Series == v.Series })
		if k < 0 {
			k, out = len(out), append(out, SweepSummary{Series: v.Series})
		}
		out[k].Variants = append(out[k].Variants, i)
	}
	out = slices.DeleteFunc(out, func(s SweepSummary) bool { return s.Series == "" || len(s.Variants) < 2 })
	for k := range out {
		sw := &out[k]
		sw.Keys = sweptKeys(r, sw.Variants)
		values := map[int]float64{}
		sw.Numeric = len(sw.Keys) == 1
		for _, i := range sw.Variants {
			if sw.Numeric {
				values[i], sw.Numeric = SweptNumber(r.Variants[i].Sweep[sw.Keys[0]])
			}
		}
		if sw.Numeric {
			slices.SortStableFunc(sw.Variants, func(a, b int) int { return cmp.Compare(values[a], values[b]) })
		}
		for _, i := range sw.Variants {
			sw.Labels = append(sw.Labels, sweepLabel(r.Variants[i].Sweep, sw.Keys))
			if sw.Numeric {
				sw.Values = append(sw.Values, values[i])
			}
		}
		judgeSweep(r, sw, base, comps)
	}
	return out
}

// judgeSweep fills sw's judgement; a claim involving the baseline must agree with its comparison.
func judgeSweep(r *results.Run, sw *SweepSummary, base int, comps []stats.Comparison) {
	samples := make([][]float64, len(sw.Variants))
	for k, i := range sw.Variants {
		samples[k] = r.Variants[i].Rates()
	}
	j := sweepPlateau(samples, func(top, other int) bool {
		t, o := sw.Variants[top], sw.Variants[other]
		switch base {
		case o: // the top against the baseline: "top − base" significant and positive
			return comps[t].Significant && comps[t].DeltaPct > 0
		case t:
			return comps[o].Significant && comps[o].DeltaPct < 0
		}
		return true
	})
	at := func(k int) int {
		if k < 0 {
			return -1
		}
		return sw.Variants[k]
	}
	sw.Top, sw.Best, sw.Family, sw.Caution = at(j.Top), at(j.Best), j.Family, j.Caution
	for _, k := range j.Plateau {
		sw.Plateau = append(sw.Plateau, sw.Variants[k])
	}
}

// sweepPlateau is PairPlateau in indexes of samples; with no pair tested it claims nothing but Top.
func sweepPlateau(samples [][]float64, agree func(top, other int) bool) SweepSummary {
	j := stats.PairPlateau(samples, agree)
	sw := SweepSummary{Top: j.Top, Best: -1, Family: j.Family, Caution: j.Caution}
	if j.Top < 0 || j.Family == 0 {
		return sw
	}
	plateau, untested := j.SearchLists(samples) // untested values are not below Top
	sw.Plateau = slices.Sorted(slices.Values(slices.Concat(plateau, untested)))
	if len(sw.Plateau) == 1 {
		sw.Best = j.Top
	}
	return sw
}

// sweptKeys are the keys whose value differs between vs (a missing key differs); all when none does.
func sweptKeys(r *results.Run, vs []int) []string {
	all := map[string]bool{}
	for _, i := range vs {
		for key := range r.Variants[i].Sweep {
			all[key] = true
		}
	}
	keys, first := slices.Sorted(maps.Keys(all)), r.Variants[vs[0]].Sweep
	varying := slices.DeleteFunc(slices.Clone(keys), func(key string) bool {
		v0, ok0 := first[key]
		return !slices.ContainsFunc(vs[1:], func(i int) bool {
			v, ok := r.Variants[i].Sweep[key]
			return ok != ok0 || v != v0
		})
	})
	if len(varying) == 0 {
		return keys
	}
	return varying
}

// SweptNumber parses a swept value as a finite number; space around and a trailing "%" are allowed.
func SweptNumber(s string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}

func sweepLabel(sweep map[string]string, keys []string) string {
	if len(keys) == 1 {
		return sweep[keys[0]]
	}
	var parts []string
	for _, k := range keys {
		if v, ok := sweep[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// ProbeSummary is one probe's deltas over a variant's repetitions.
type ProbeSummary struct {
	Name          string  `json:"name"`
	N             int     `json:"n"` // readings that succeeded
	Failed        int     `json:"failed,omitempty"`
	FirstError    string  `json:"first_error,omitempty"`
	MeanDelta     float64 `json:"mean_delta"` // of the good deltas
	PerRequest    float64 `json:"-"`          // their sum over the same repetitions' requests
	HasPerRequest bool    `json:"-"`
}

func summarizeProbes(v *results.Variant) []ProbeSummary {
	probes, sums, reqs := map[string]*ProbeSummary{}, map[string]float64{}, map[string]uint64{}
	for _, rep := range v.Reps {
		for name, pr := range rep.Probes {
			p := cmp.Or(probes[name], &ProbeSummary{Name: name})
			probes[name] = p
			if pr.Error != "" {
				p.Failed, p.FirstError = p.Failed+1, cmp.Or(p.FirstError, pr.Error)
				continue
			}
			p.N++
			sums[name] += pr.Delta()
			reqs[name] += rep.Total.Requests
		}
	}
	var out []ProbeSummary
	for _, name := range slices.Sorted(maps.Keys(probes)) {
		p := *probes[name]
		if p.N > 0 {
			p.MeanDelta = sums[name] / float64(p.N)
		}
		if reqs[name] > 0 {
			p.PerRequest, p.HasPerRequest = sums[name]/float64(reqs[name]), true
		}
		out = append(out, p)
	}
	return out
}

// probeWarnings: a failed probe leaves no delta and crosses its thresholds, so every output says so.
func probeWarnings(vs []VariantSummary) notes.List {
	byName, variants := map[string]*ProbeSummary{}, map[string][]string{} // the run's, and who failed
	for _, v := range vs {
		for _, p := range v.Probes {
			a := cmp.Or(byName[p.Name], &ProbeSummary{})
			byName[p.Name] = a
			a.N, a.Failed, a.FirstError = a.N+p.N, a.Failed+p.Failed, cmp.Or(a.FirstError, p.FirstError)
			if p.Failed > 0 {
				variants[p.Name] = append(variants[p.Name], v.Name)
			}
		}
	}
	var ws notes.List
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if a := byName[name]; a.Failed > 0 {
			ws = append(ws, notes.New(notes.ProbeFailed, "probe", name, "failed", a.Failed, "read", a.N+a.Failed,
				"variants", variants[name], "first", a.FirstError))
		}
	}
	return ws
}

// MarshalJSON writes p with per_request last, left out without requests.
func (p ProbeSummary) MarshalJSON() ([]byte, error) {
	type plain ProbeSummary
	var per *float64
	if p.HasPerRequest {
		per = &p.PerRequest
	}
	return json.Marshal(struct {
		plain
		PerRequest *float64 `json:"per_request,omitempty"`
	}{plain(p), per})
}

// DriftSummary shows how the rates moved over the rounds (round r: every variant's repetition r).
// RoundPct is the variants' mean geometric deviation from their own mean in a round, %; TrendPct
// the change from the first round to the last, %, by least squares with a level per variant.
type DriftSummary struct {
	Rounds              int
	Cells               [][]RoundCell // [variant][round]
	RoundPct            []float64
	RoundHas            []bool
	TrendPct            float64
	HasTrend            bool // two rounds or more
	Controlled, Unknown bool // not for a sequential order, where drift lands between variants
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
	// Least squares of ln(rate) on the round, an intercept per variant: slope Σ(x−x̄ᵥ)(y−ȳᵥ) / Σ(x−x̄ᵥ)².
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

// SearchSummary is what a search found: Best the highest mean of points measured twice or more.
type SearchSummary struct {
	Search        *results.Search
	Points        []SearchPoint // the visited values in grid order
	Best          int           // -1 when nothing was measured; all count when none was measured twice
	Plateau       []int         // the points not significantly worse than Best, in grid order
	PlateauLow    int           // the first of Plateau, -1 when none
	Windows, Grid int           // windows measured, of a full grid
	Family        int           // pairs judged together
	Caution       string        // set when a point on trial had fewer than three windows
	Predicted     *SearchPrediction
}

// SearchPoint is one visited value (Index: its grid position).
type SearchPoint struct {
	Value, Variant    string
	Index             int
	Visits            []int // 1-based visit numbers of its windows
	Scores            []float64
	Stats             stats.Stats // the Scores' in the objective's unit (ms for ObjectiveP99)
	Plateau, Untested bool        // Untested: measured once
}

// SummarizeSearch returns what the search of r found; nil when r has none.
func SummarizeSearch(r *results.Run) *SearchSummary {
	s := r.Search
	if s == nil {
		return nil
	}
	sum := &SearchSummary{Search: s, Best: -1, PlateauLow: -1, Windows: len(s.Visits), Grid: len(s.Values)}
	for n, vis := range s.Visits {
		k := slices.IndexFunc(sum.Points, func(p SearchPoint) bool { return p.Variant == vis.Variant })
		if k < 0 {
			k, sum.Points = len(sum.Points), append(sum.Points, SearchPoint{Value: vis.Value, Variant: vis.Variant,
				Index: slices.Index(s.Values, vis.Value)})
		}
		p := &sum.Points[k]
		p.Visits = append(p.Visits, n+1)
		if v := findVariant(r, vis.Variant); v != nil && s.Member(v) {
			for i := range v.Reps {
				if v.Reps[i].Index == vis.Rep {
					score, _ := results.SearchScore(s.Maximize, &v.Reps[i])
					p.Scores = append(p.Scores, score)
				}
			}
		}
	}
	slices.SortStableFunc(sum.Points, func(a, b SearchPoint) int { return a.Index - b.Index })
	samples := make([][]float64, len(sum.Points))
	for i := range sum.Points {
		p := &sum.Points[i]
		samples[i] = p.Scores
		shown := p.Scores
		if s.Maximize == results.ObjectiveP99 {
			shown = make([]float64, len(p.Scores))
			for j, x := range p.Scores {
				if x > 0 {
					shown[j] = 1000 / x // ms
				}
			}
		}
		p.Stats = stats.Summarize(shown)
	}
	j := stats.PairPlateau(samples, nil)
	plateau, untested := j.SearchLists(samples)
	sum.Best, sum.Plateau, sum.Family, sum.Caution = j.Top, plateau, j.Family, j.Caution
	for i := range sum.Points {
		p := &sum.Points[i]
		p.Plateau, p.Untested = slices.Contains(plateau, i), slices.Contains(untested, i)
	}
	if len(plateau) > 0 {
		sum.PlateauLow = plateau[0]
	}
	return sum
}

// Unit is the objective's unit as reports show it.
func (s *SearchSummary) Unit() string {
	return cmp.Or(map[results.Objective]string{results.ObjectiveRatePerCPU: "req/s per server CPU-second",
		results.ObjectiveP99: "ms p99 handshake"}[s.Search.Maximize], "req/s")
}

// Lines says what the search found: its budget, the best value and the plateau.
func (s *SearchSummary) Lines() notes.List {
	se := s.Search
	lo, hi := format.Missing, format.Missing
	if n := len(se.Values); n > 0 {
		lo, hi = se.Values[0], se.Values[n-1]
	}
	lines := notes.List{notes.New(notes.SearchHead, "series", se.Series, "key", se.Key, "grid", s.Grid, "first", lo,
		"last", hi, "objective", string(se.Maximize), "windows", s.Windows, "budget", se.Budget)}
	if s.Best < 0 {
		return append(lines, notes.New(notes.SearchNone))
	}
	b := &s.Points[s.Best]
	best := notes.New(notes.SearchBest, "key", se.Key, "value", b.Value, "mean", b.Stats.Mean, "unit", s.Unit(), "n", b.Stats.N)
	if b.Stats.HasCI {
		best.Args["low"], best.Args["high"] = b.Stats.CI95Low, b.Stats.CI95High
	}
	lines = append(lines, best)
	if p := s.Predicted; p != nil {
		lines = append(lines, notes.New(notes.SearchPredicted, "key", se.Key, "value", p.Value, "prediction", *p.Prediction))
	}
	var vals, once []string
	for _, p := range s.Points {
		if p.Plateau {
			vals = append(vals, p.Value)
		}
		if p.Untested {
			once = append(once, p.Value)
		}
	}
	lines = append(lines, notes.New(notes.SearchPlateau, "values", vals, "key", se.Key, "lowest", s.Points[s.PlateauLow].Value, "caution", s.Caution))
	if len(once) > 0 {
		lines = append(lines, notes.New(notes.SearchOnce, "values", once))
	}
	return lines
}

// VisitOrder lists the visits as "1:50 2:25 …" (visit number:value).
func (s *SearchSummary) VisitOrder() string {
	parts := make([]string, len(s.Search.Visits))
	for i, v := range s.Search.Visits {
		parts[i] = strconv.Itoa(i+1) + ":" + v.Value
	}
	return strings.Join(parts, " ")
}

// searchSweep shows the search's plateau, and a best only when alone on it with every point tested.
func searchSweep(r *results.Run, rs *RunSummary) {
	ss := SummarizeSearch(r)
	for k := range rs.Sweeps {
		sw := &rs.Sweeps[k]
		if ss == nil || sw.Series != ss.Search.Series {
			continue
		}
		sw.Plateau, sw.Best, sw.Family, sw.Caution = nil, -1, ss.Family, ss.Caution
		for _, pi := range ss.Plateau {
			if i := variantIndex(r, ss.Points[pi].Variant); i >= 0 {
				sw.Plateau = append(sw.Plateau, i)
			}
		}
		untested := slices.ContainsFunc(ss.Points, func(p SearchPoint) bool { return p.Untested })
		if len(sw.Plateau) == 1 && !untested && ss.Best >= 0 {
			sw.Best = variantIndex(r, ss.Points[ss.Best].Variant)
		}
	}
}

const (
	// SoftRatioEnv sets the % of signatures kept in software (KAE's; the built-in accelerator's too).
	SoftRatioEnv = "KAE_GO_SOFT_RATIO"
	versionTLS13 = 0x0304 // crypto/tls.VersionTLS13 (results imports no TLS)
)

// SoftRatio predicts the best soft ratio from windows at two or more; a flagged one gives only its CPU.
func SoftRatio(m *Report) *softratio.Prediction {
	var in softratio.Input
	ratios := map[float64]bool{}
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil || pct < 0 || pct > 100 || v.Env["KAELOAD_ACCEL"] == "off" {
			continue
		}
		for j := range v.Reps {
			rep, ra := &v.Reps[j], &m.Reps[i][j]
			u := ra.ServerCPUs // the model needs the server's CPU time
			if rep.Failed != nil || rep.ServerCPU == nil || rep.Total.Requests == 0 || u == nil || !u.HasServer {
				continue
			}
			in.Windows = append(in.Windows, softratio.Window{Ratio: pct / 100, Rate: rep.Total.Rate(),
				CPUPerRequest: rep.ServerCPU.Seconds / float64(rep.Total.Requests), Busy: u.Server,
				CPUs: len(cpuList(u.CPUs)), Saturated: u.Server >= results.ServerSaturatedBusy,
				OtherBound: ra.Flagged()})
			ratios[pct/100] = true
		}
	}
	if len(ratios) < 2 {
		return nil
	}
	if b := readPlan(m.Run.Plan).Target.Builtin; b != nil && b.Accel != nil && b.Accel.Capacity > 0 {
		in.Capacity, in.CapacityFrom = b.Accel.Capacity, softratio.FromScenario
	}
	p := softratio.Predict(in)
	return &p
}

// planView is what the analysis reads of an encoded Plan (results imports no plans).
type planView struct {
	Target struct {
		TLS *struct {
			MaxVersion uint16 `json:"max_version"`
		} `json:"tls"`
		Builtin *struct {
			Accel *struct {
				Capacity float64 `json:"capacity"`
			} `json:"accel"`
		} `json:"builtin"`
	} `json:"target"`
	Variants []struct {
		Env map[string]string `json:"env"`
	} `json:"variants"`
	Search *struct {
		First, Points int
	} `json:"search"`
}

func readPlan(raw json.RawMessage) (p planView) {
	if json.Unmarshal(raw, &p) != nil {
		return planView{}
	}
	return p
}

// Hints: max_version "1.2" for a variant that offered TLS 1.3 but negotiated only TLS 1.2.
func Hints(r *results.Run) notes.List {
	if tls := readPlan(r.Plan).Target.TLS; tls == nil || tls.MaxVersion < versionTLS13 {
		return nil
	}
	var hints notes.List
	for _, v := range r.Variants {
		n, only12 := uint64(0), true
		for _, rep := range v.Reps {
			for key, c := range rep.Total.Negotiated {
				n, only12 = n+c, only12 && strings.HasPrefix(key, "TLS1.2 ")
			}
		}
		if n > 0 && only12 {
			hints = append(hints, notes.New(notes.TLS12Hint, "variant", v.Name))
		}
	}
	return hints
}

// SearchPrediction is what start: predicted predicted, and the grid Value nearest its best ratio.
type SearchPrediction struct {
	Prediction *softratio.Prediction
	Value      string
}

// StartPrediction is what r's search started from; nil when none.
func StartPrediction(r *results.Run) *SearchPrediction {
	s := r.Search
	if s == nil || s.Start != "predicted" || len(s.Values) == 0 {
		return nil
	}
	first, last := s.Values[0], s.Values[len(s.Values)-1]
	n, seen := 0, map[string]bool{}
	for ; n < len(s.Visits) && !(seen[first] && seen[last]); n++ {
		seen[s.Visits[n].Value] = true
	}
	if !seen[first] || !seen[last] {
		return nil
	}
	cp := *r
	cp.Search, cp.Variants = nil, slices.Clone(r.Variants)
	for i := range cp.Variants {
		if v := &cp.Variants[i]; s.Member(v) {
			v.Reps = slices.DeleteFunc(slices.Clone(v.Reps), func(rep results.Rep) bool {
				return !slices.Contains(s.Visits[:n], s.Visit(v, &rep))
			})
		}
	}
	sp := &SearchPrediction{Prediction: SoftRatio(Analyze(&cp))}
	if sp.Prediction == nil {
		p := softratio.Predict(softratio.Input{})
		sp.Prediction = &p
	}
	// The grid's soft ratios (%) in the plan: the value nearest the best.
	p := readPlan(r.Plan)
	if sp.Prediction.Status != softratio.OK || p.Search == nil || p.Search.Points != len(s.Values) ||
		p.Search.First+p.Search.Points > len(p.Variants) {
		return sp
	}
	best := math.Inf(1)
	for k, v := range p.Variants[p.Search.First : p.Search.First+p.Search.Points] {
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil {
			sp.Value = ""
			break
		}
		if d := math.Abs(pct - 100*sp.Prediction.Ratio.Value); d < best {
			best, sp.Value = d, s.Values[k]
		}
	}
	return sp
}
