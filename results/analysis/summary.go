package analysis

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
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
	Name, Series    string
	IsBaseline      bool
	Stats           stats.Stats      // of the repetitions' rates
	Comparison      stats.Comparison // against the baseline, in the run's family
	results.Counts                   // the repetitions' counts summed (Scheduled, Missed: open-loop starts)
	results.Latency                  // their histograms merged exactly (never nil); Intended nil in a closed loop
	Probes          []ProbeSummary
	ClientBusyMax   float64 // the busiest group CPU's Busy, if HasClientCPU
	HasClientCPU    bool
	// Repetitions failed, client-bound, other-loaded on a group, misaligned; with the server's CPUs other-loaded,
	// shared with a client group, or either (ServerShared: how).
	FailedReps, ClientBoundReps, OtherLoadReps, MisalignedReps int
	ServerOtherLoadReps, SharedCPUReps, ServerSharedReps       int
	ServerShared                                               notes.List
	SaturationReps, NotSaturatedReps                           int // judged; did not load the server
	// Sums over the repetitions whose every group measured client CPU, or with a server CPU reading.
	ServerCPUReps                        int
	ClientCPUSeconds, ServerCPUSeconds   float64
	ClientCPURequests, ServerCPURequests uint64
	// Requests per server CPU-second (ServerCPURates), in a family of their own.
	ServerCPUStats      stats.Stats
	ServerCPUComparison stats.Comparison
	Best                bool       // significantly faster than every other of its sweep
	Plateau             bool       // none of its sweep is significantly faster
	MDESpread           notes.Note // the repetitions that alone make most of the MDE's spread
	Caveat              notes.Note // what else its figures measured
	VerdictCaveat       notes.Note // Caveat, the baseline's and their differences, for the verdict
	serverOthers        []float64  // others' share of the server's CPUs, per repetition measured
}

// ClientMicrosPerRequest is the client's CPU µs per request over the repetitions that measured it.
func (s *VariantSummary) ClientMicrosPerRequest() (float64, bool) {
	if s.ClientCPURequests == 0 { // PerRequest counts no repetition without requests
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
	Series    string
	Keys      []string // the swept keys whose values differ, sorted (all when none do)
	Numeric   bool     // one key whose values all parse (SweptNumber): the variants in order of Values
	Values    []float64
	Variants  []int
	Labels    []string // "v" for one key, "k1=v1 k2=v2" else
	Top, Best int      // Top: the highest mean among values with 2+ repetitions (-1: none); Best: Top alone on Plateau
	Plateau   []int    // those Top is not significantly faster than (Holm; empty when none was tested)
	Family    int      // pairs judged
	Caution   string   // set when a value had fewer than three repetitions
}

// summarizeRun computes the RunSummary of r, its search's sweep judged as search found (nil: as any).
func summarizeRun(r *results.Run, reps [][]RepReport, search *SearchSummary) *RunSummary {
	base, name := r.BaselineVariant()
	s := &RunSummary{Baseline: base, BaselineName: name, Variants: make([]VariantSummary, len(r.Variants)),
		Equivalence:     cmp.Or(max(r.Equivalence, 0), results.DefaultEquivalence), // unset or not positive: default
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
	searchSweep(r, s, search)
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
		Probes: summarizeProbes(v), Latency: results.NewLatency()}
	for i := range v.Reps {
		rep, ra := &v.Reps[i], &reps[i]
		t := &rep.Total
		s.Counts.Add(&t.Counts)
		s.Latency.Merge(&t.Latency)
		s.ClientBoundReps += b2i(!ra.ClientBound.IsZero())
		s.OtherLoadReps += b2i(!ra.OtherLoad.IsZero())
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
			s.ClientCPUSeconds += us * float64(t.Requests) / 1e6
			s.ClientCPURequests += t.Requests
		}
		if rep.ServerCPU != nil {
			s.ServerCPUReps++
			s.ServerCPUSeconds += rep.ServerCPU.Seconds
			s.ServerCPURequests += t.Requests
		}
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ProbeSummary is one probe's deltas over a variant's repetitions.
type ProbeSummary struct {
	Name       string   `json:"name"`
	N          int      `json:"n"` // readings that succeeded
	Failed     int      `json:"failed,omitempty"`
	FirstError string   `json:"first_error,omitempty"` // the first failure's
	MeanDelta  float64  `json:"mean_delta"`            // of the good deltas
	PerRequest *float64 `json:"per_request,omitempty"` // their sum / those repetitions' requests; nil: none
}

func summarizeProbes(v *results.Variant) []ProbeSummary {
	probes, reqs := map[string]*ProbeSummary{}, map[string]uint64{} // MeanDelta is a sum until divided
	for _, rep := range v.Reps {
		for name, pr := range rep.Probes {
			p := cmp.Or(probes[name], &ProbeSummary{Name: name})
			probes[name] = p
			if pr.Error != "" {
				p.Failed++
				p.FirstError = cmp.Or(p.FirstError, pr.Error) // the first failure's
				continue
			}
			p.N++
			p.MeanDelta += pr.Delta()
			reqs[name] += rep.Total.Requests
		}
	}
	var out []ProbeSummary
	for _, name := range slices.Sorted(maps.Keys(probes)) {
		p := *probes[name]
		if reqs[name] > 0 {
			per := p.MeanDelta / float64(reqs[name])
			p.PerRequest = &per
		}
		p.MeanDelta /= float64(max(p.N, 1))
		out = append(out, p)
	}
	return out
}

// probeWarnings: a failed probe leaves no delta and crosses its thresholds, so every output says so.
func probeWarnings(r *results.Run, vs []VariantSummary) notes.List {
	var all results.Variant // the run's probes, summarized as one variant's
	for _, v := range r.Variants {
		all.Reps = append(all.Reps, v.Reps...)
	}
	var ws notes.List
	for _, p := range summarizeProbes(&all) {
		if p.Failed == 0 {
			continue
		}
		var variants []string // those it failed in
		for _, v := range vs {
			if slices.ContainsFunc(v.Probes, func(q ProbeSummary) bool { return q.Name == p.Name && q.Failed > 0 }) {
				variants = append(variants, v.Name)
			}
		}
		ws = append(ws, notes.New(notes.ProbeFailed, "probe", p.Name, "failed", p.Failed, "read", p.N+p.Failed,
			"variants", variants, "first", p.FirstError))
	}
	return ws
}

// DriftSummary is how rates moved over rounds (round r: each variant's rep r): RoundPct per round the variants'
// mean geometric deviation from their own mean, %; TrendPct the change from first to last round, % (see drift).
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
