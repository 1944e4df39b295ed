package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// RunSummary is what every rendering of a run (text, Markdown, CSV, HTML)
// says about it across repetitions: one VariantSummary per variant, in
// plan order, and the sweeps. SummarizeRun computes it once, so that every
// format shows the same numbers.
type RunSummary struct {
	// Baseline is the index of the baseline variant (Run.BaselineIndex);
	// -1 when the baseline was not measured: a run interrupted, or still
	// going, before the baseline's first window, or one whose baseline
	// could not run. Nothing is compared then (TestNoBaseline).
	Baseline int
	// BaselineName names the baseline variant, measured or not ("" only
	// for a run without variants and without a named baseline).
	BaselineName string
	// BaselineMissing is "" when the baseline was measured, else "not
	// measured yet" for a run that may still measure it (interrupted or
	// incomplete) or "not measured" for one that ended without it.
	BaselineMissing string
	// Variants are in the order of Run.Variants.
	Variants []VariantSummary
	// Sweeps are the variant series with at least two variants, in the
	// order their first variant appears in the run.
	Sweeps []SweepSummary
	// Family is the number of comparisons with the baseline whose test
	// ran; they are judged together (CompareFamily, Holm's adjustment).
	Family int
	// Equivalence is the equivalence margin the comparisons were judged
	// with, as a fraction (Run.Equivalence, or DefaultEquivalence).
	Equivalence float64
	// Drift is how the rates moved over the rounds.
	Drift DriftSummary
	// Warnings are what the statistics say a reader must know (drift not
	// controlled, drift as large as a claimed difference), one sentence
	// each; Annotate adds them to Run.Warnings.
	Warnings notes.List
}

// VariantSummary sums up one variant over its repetitions.
type VariantSummary struct {
	// Name and Series are the variant's.
	Name   string
	Series string
	// IsBaseline is true for the baseline variant.
	IsBaseline bool
	// Stats summarises the repetitions' total rates (Variant.Rates).
	Stats stats.Stats
	// Comparison compares the rates with the baseline's, judged with the
	// run's other comparisons (CompareFamily); the zero Comparison for the
	// baseline itself.
	Comparison stats.Comparison
	// Errors are summed over the repetitions.
	Errors uint64
	// ErrorShare is the share of the repetitions' attempts that failed,
	// as Counts.ErrorShare of their summed counts.
	ErrorShare float64
	// Connect, Handshake, TTFB and Total are the repetitions' total
	// histograms merged exactly (never nil; empty when there are no
	// repetitions).
	Connect   *results.Histogram
	Handshake *results.Histogram
	TTFB      *results.Histogram
	Total     *results.Histogram
	// Scheduled and Missed sum the repetitions' open-loop starts due and
	// missed (Counts.Scheduled, Counts.Missed); 0 in a closed loop.
	Scheduled, Missed uint64
	// Intended merges the repetitions' latency from the intended start
	// (Latency.Intended); nil in a closed loop.
	Intended *results.Histogram
	// Probes are the probe deltas by probe name, sorted by name.
	Probes []ProbeSummary
	// FailedReps is the number of failed repetitions (Rep.Failed).
	FailedReps int
	// ClientBoundReps is the number of repetitions with a client-bound
	// group (ClientBound).
	ClientBoundReps int
	// OtherLoadReps is the number of repetitions in which other processes
	// took a large share of some group's CPUs (OtherLoad).
	OtherLoadReps int
	// MisalignedReps is the number of repetitions whose groups' windows
	// spread apart (Misaligned).
	MisalignedReps int
	// ServerOtherLoadReps is the number of repetitions in which other
	// processes took a large share of the server's CPUs
	// (ServerCPUUse.OtherLoad), SharedCPUReps those in which a
	// client group ran on some of them (ServerCPUUse.Shared), and
	// ServerSharedReps those with either: the server's CPUs were shared.
	// ServerShared says how, each distinct phrase once, in the order met
	// ("client and server share CPU 0", "OTHER LOAD on the server's CPU
	// 0, busiest sh (pid 5151, nice 10)"). A verdict on a variant whose server CPUs were shared in
	// most repetitions (ServerSharedInMost) says "shared CPUs".
	ServerOtherLoadReps, SharedCPUReps, ServerSharedReps int
	ServerShared                                         notes.List
	// SaturationReps is the number of repetitions judged for saturation
	// (Saturation.Judged), NotSaturatedReps those that did not load the
	// server (NotSaturatedLine).
	SaturationReps, NotSaturatedReps int
	// ClientBusyMax is the highest Busy of any group's CPU over the
	// repetitions; HasClientCPU says whether any group was measured.
	ClientBusyMax float64
	HasClientCPU  bool
	// ClientCPUReps is the number of repetitions whose client CPU was
	// measured for every group (ClientCPU.PerRequest), ClientCPUSeconds
	// their client CPU time and ClientCPURequests their requests;
	// ClientCPUOwnReps of them measured kaeload's own process time, the
	// others the busy time of the groups' CPUs.
	ClientCPUReps     int
	ClientCPUSeconds  float64
	ClientCPURequests uint64
	ClientCPUOwnReps  int
	// ServerCPUReps is the number of repetitions with a server CPU
	// reading; ServerCPUSeconds their server CPU time and
	// ServerCPURequests their requests, so that
	// ServerCPURequests / ServerCPUSeconds is requests per server CPU-second.
	ServerCPUReps     int
	ServerCPUSeconds  float64
	ServerCPURequests uint64
	// ServerCPUStats summarises the repetitions' requests per server
	// CPU-second (ServerCPURates) as Stats does their req/s: the mean and
	// the 95 % confidence interval of the geometric mean. N is 0 when the
	// server's CPU was not read.
	ServerCPUStats stats.Stats
	// ServerCPUComparison compares them with the baseline's as
	// Comparison compares req/s, in a family of its own (compareServerCPU);
	// the zero Comparison for the baseline, TestNone without two readings
	// a side, TestNoBaseline when the baseline was not measured.
	ServerCPUComparison stats.Comparison
	// Best is true for the variant of its sweep that is significantly
	// faster than every other one (see SweepSummary.Best); Plateau is true
	// for the variants of its sweep that no other is significantly faster
	// than (SweepSummary.Plateau), the best one included.
	Best    bool
	Plateau bool
	// MDESpread names the repetitions, of the variant or the baseline,
	// that alone make most of the spread behind the comparison's MDE
	// (mdeSpread): "baseline rep 2 (35,120.0 req/s)"; "" when none does.
	MDESpread notes.Note
	// Caveat says what else the variant's figures measured (caveatOf):
	// "measured the client: CLIENT-BOUND in 3 of 3 repetitions",
	// "caution: …"; "" when no repetition is flagged.
	Caveat notes.Note
	// VerdictCaveat is what the verdict against the baseline must say
	// with it: the variant's Caveat and the baseline's ("baseline
	// measured the client: …"); "" when neither is flagged, and for the
	// baseline itself.
	VerdictCaveat notes.Note
}

// ClientMicrosPerRequest returns the client's CPU time per request in
// microseconds over the repetitions whose client CPU was measured, and
// false when none was: the load generator's own cost, to set beside the
// rate it drove.
func (s *VariantSummary) ClientMicrosPerRequest() (float64, bool) {
	if s.ClientCPUReps == 0 || s.ClientCPURequests == 0 {
		return 0, false
	}
	return s.ClientCPUSeconds * 1e6 / float64(s.ClientCPURequests), true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RequestsPerServerCPU returns requests per server CPU-second over the
// repetitions whose server CPU was measured, and false when none was (or
// it used no CPU time). This is what offload saves: the same requests for
// less server CPU.
func (s *VariantSummary) RequestsPerServerCPU() (float64, bool) {
	if s.ServerCPUReps == 0 || s.ServerCPUSeconds <= 0 {
		return 0, false
	}
	return float64(s.ServerCPURequests) / s.ServerCPUSeconds, true
}

// ProbeSummary is one probe's deltas (ProbeReading.Delta) over a
// variant's repetitions.
type ProbeSummary struct {
	// Name is the probe's name.
	Name string
	// N is the number of repetitions where the probe was read without
	// error; Failed the number where it failed, and FirstError the first
	// failure's message.
	N          int
	Failed     int
	FirstError string
	// MeanDelta is the mean delta over the N good readings.
	MeanDelta float64
	// PerRequest is the sum of the good deltas divided by the requests of
	// the same repetitions: e.g. 1.0 hardware operations per request says
	// every handshake was offloaded. HasPerRequest is false when those
	// repetitions completed no request.
	PerRequest    float64
	HasPerRequest bool
}

// SweepSummary is one series of swept variants (same Variant.Series).
type SweepSummary struct {
	// Series is the series name (the variant name template).
	Series string
	// Keys are the swept keys whose value differs between the variants,
	// sorted (all of them when none differs): a key every variant holds
	// at one value says nothing about their differences.
	Keys []string
	// Numeric is true when there is one key and every value parses as a
	// number (SweptNumber: "33%" is 33); the variants are then ordered by
	// value, otherwise in run order.
	Numeric bool
	// Values are the variants' numbers in chart order when Numeric, nil
	// otherwise.
	Values []float64
	// Variants are indexes into Run.Variants (and RunSummary.Variants) in
	// chart order.
	Variants []int
	// Labels are the variants' swept values in chart order: the value for
	// one key, "k1=v1 k2=v2" for several.
	Labels []string
	// Top is the index into Run.Variants of the variant with the highest
	// mean rate (the first of equals in chart order) among those with two
	// repetitions or more (among all when none has; PairPlateau); -1 when
	// no variant of the series has a repetition.
	Top int
	// Plateau are the indexes into Run.Variants, in chart order, of the
	// measured variants the top one is not significantly faster than,
	// the top one included (PairPlateau: every pair of the series' values
	// judged together, Holm-adjusted, so that the chance of any false
	// claim is at most Alpha however many values the sweep has). A claim
	// about the run's baseline, when it is one of the values, also needs
	// the comparison with the baseline to say so: the sweep and the
	// comparisons never contradict each other. Variants that cannot be
	// tested (n < 2) stay on it. It is empty when no pair of values could
	// be tested (Family 0): then nothing is claimed.
	Plateau []int
	// Best is Top when the plateau is Top alone (the top value is
	// significantly faster than every other), -1 otherwise.
	Best int
	// Family is the number of pairs of values judged together; Caution
	// is set when a value had fewer than three repetitions
	// (Comparison.Caution).
	Family  int
	Caution string
}

// SummarizeRun computes the RunSummary of r. A baseline that r does not
// hold (r.Baseline names no variant of r.Variants, which holds only
// variants with a repetition, or r has no variants) is not an error: the
// summary shows what was measured and compares nothing (Baseline -1,
// BaselineMissing, TestNoBaseline). The error is nil.
func SummarizeRun(r *results.Run) (*RunSummary, error) {
	base, name := r.BaselineVariant()
	s := &RunSummary{Baseline: base, BaselineName: name, Variants: make([]VariantSummary, len(r.Variants)), Equivalence: r.Equivalence}
	if s.Equivalence <= 0 {
		s.Equivalence = results.DefaultEquivalence
	}
	var comps []stats.Comparison
	if base >= 0 {
		others := make([][]float64, len(r.Variants))
		for i := range r.Variants {
			if i != base {
				others[i] = r.Variants[i].Rates()
			}
		}
		comps = stats.CompareFamily(r.Variants[base].Rates(), others, s.Equivalence)
	} else {
		s.BaselineMissing = "not measured"
		if r.Interrupted || r.Incomplete {
			s.BaselineMissing = "not measured yet"
		}
	}
	for i := range r.Variants {
		s.Variants[i] = summarizeVariant(&r.Variants[i], i == base)
		switch {
		case base < 0:
			s.Variants[i].Comparison = stats.Comparison{PValue: 1, PAdjusted: 1, Test: stats.TestNoBaseline}
		case i != base:
			s.Variants[i].Comparison = comps[i]
			if comps[i].Tested() {
				s.Family++
			}
		}
	}
	s.Sweeps = sweeps(r, base, comps)
	for _, sw := range s.Sweeps {
		if sw.Best >= 0 {
			s.Variants[sw.Best].Best = true
		}
		for _, i := range sw.Plateau {
			s.Variants[i].Plateau = true
		}
	}
	compareServerCPU(r, s)
	searchSweep(r, s)
	setCaveats(s)
	addBaselineCaveats(r, s, handshakeCaveat)
	addBaselineCaveats(r, s, otherLoadCaveat)
	if base >= 0 {
		for i := range s.Variants {
			if v := &s.Variants[i]; !v.IsBaseline && v.Comparison.HasMDE {
				v.MDESpread = mdeSpread(&r.Variants[base], &r.Variants[i])
			}
		}
	}
	s.Drift = drift(r)
	s.Warnings = driftWarnings(r, s)
	return s, nil
}

// NoComparison says, in place of the comparison, why a run compares
// nothing: "baseline "b" not measured yet: no variant is compared with
// it"; "" when the baseline was measured.
func (s *RunSummary) NoComparison() string {
	if s.BaselineMissing == "" {
		return ""
	}
	return fmt.Sprintf("baseline %q %s: no variant is compared with it", s.BaselineName, s.BaselineMissing)
}

// BaselineLine names the baseline for a report's header, with
// BaselineMissing in brackets when it was not measured: "b (not measured
// yet)".
func (s *RunSummary) BaselineLine() string {
	if s.BaselineMissing == "" {
		return s.BaselineName
	}
	return s.BaselineName + " (" + s.BaselineMissing + ")"
}

func summarizeVariant(v *results.Variant, isBase bool) VariantSummary {
	rates := v.Rates()
	s := VariantSummary{
		Name: v.Name, Series: v.Series, IsBaseline: isBase,
		Stats:   stats.Summarize(rates),
		Connect: results.NewHistogram(), Handshake: results.NewHistogram(), TTFB: results.NewHistogram(), Total: results.NewHistogram(),
	}
	var counts results.Counts
	for i := range v.Reps {
		rep := &v.Reps[i]
		t := &rep.Total
		counts.Add(&t.Counts)
		s.Errors += t.Errors.Total()
		mergeInto(s.Connect, t.Latency.Connect)
		mergeInto(s.Handshake, t.Latency.Handshake)
		mergeInto(s.TTFB, t.Latency.TTFB)
		mergeInto(s.Total, t.Latency.Total)
		s.Scheduled += t.Scheduled
		s.Missed += t.Missed
		if h := t.Latency.Intended; h != nil && h.Histogram != nil {
			if s.Intended == nil {
				s.Intended = results.NewHistogram()
			}
			mergeInto(s.Intended, h)
		}
		if len(ClientBound(rep)) > 0 {
			s.ClientBoundReps++
		}
		if len(OtherLoad(rep)) > 0 {
			s.OtherLoadReps++
		}
		if Misaligned(rep) {
			s.MisalignedReps++
		}
		s.addServerCPUs(rep)
		if rep.Failed != nil {
			s.FailedReps++
		}
		if c := RepClientCPU(rep); c.Measured > 0 {
			s.HasClientCPU = true
			s.ClientBusyMax = max(s.ClientBusyMax, c.BusyMax)
		}
		if us, own, ok := RepClientCPU(rep).PerRequest(t.Requests); ok {
			s.ClientCPUReps++
			s.ClientCPUSeconds += us * float64(t.Requests) / 1e6
			s.ClientCPURequests += t.Requests
			s.ClientCPUOwnReps += b2i(own)
		}
		if rep.ServerCPU != nil {
			s.ServerCPUReps++
			s.ServerCPUSeconds += rep.ServerCPU.Seconds
			s.ServerCPURequests += t.Requests
		}
	}
	s.Probes = summarizeProbes(v)
	s.ErrorShare = counts.ErrorShare()
	return s
}

// summarizeProbes sums up v's probe deltas by probe name, sorted by name.
func summarizeProbes(v *results.Variant) []ProbeSummary {
	type probeAcc struct {
		ProbeSummary
		sum  float64
		reqs uint64
	}
	probes := map[string]*probeAcc{}
	for i := range v.Reps {
		for name, pr := range v.Reps[i].Probes {
			a := probes[name]
			if a == nil {
				a = &probeAcc{ProbeSummary: ProbeSummary{Name: name}}
				probes[name] = a
			}
			if pr.Error != "" {
				if a.Failed == 0 {
					a.FirstError = pr.Error
				}
				a.Failed++
				continue
			}
			a.N++
			a.sum += pr.Delta()
			a.reqs += v.Reps[i].Total.Requests
		}
	}
	var out []ProbeSummary
	for _, a := range probes {
		p := a.ProbeSummary
		if p.N > 0 {
			p.MeanDelta = a.sum / float64(p.N)
		}
		if a.reqs > 0 {
			p.PerRequest, p.HasPerRequest = a.sum/float64(a.reqs), true
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// mergeInto merges src into dst when src holds a histogram.
func mergeInto(dst, src *results.Histogram) {
	if src != nil && src.Histogram != nil {
		dst.Merge(src.Histogram) // same bounds everywhere: exact
	}
}

// sweeps groups the variants of r by Series into SweepSummaries.
func sweeps(r *results.Run, base int, comps []stats.Comparison) []SweepSummary {
	var out []SweepSummary
	bySeries := map[string]int{}
	for i := range r.Variants {
		v := &r.Variants[i]
		if v.Series == "" {
			continue
		}
		j, ok := bySeries[v.Series]
		if !ok {
			j = len(out)
			bySeries[v.Series] = j
			out = append(out, SweepSummary{Series: v.Series})
		}
		out[j].Variants = append(out[j].Variants, i)
	}
	out = slices.DeleteFunc(out, func(s SweepSummary) bool { return len(s.Variants) < 2 })
	for k := range out {
		sw := &out[k]
		sw.Keys = sweptKeys(r, sw.Variants)
		values := make(map[int]float64, len(sw.Variants))
		sw.Numeric = len(sw.Keys) == 1
		for _, i := range sw.Variants {
			if !sw.Numeric {
				break
			}
			values[i], sw.Numeric = SweptNumber(r.Variants[i].Sweep[sw.Keys[0]])
		}
		if sw.Numeric {
			sort.SliceStable(sw.Variants, func(a, b int) bool { return values[sw.Variants[a]] < values[sw.Variants[b]] })
			for _, i := range sw.Variants {
				sw.Values = append(sw.Values, values[i])
			}
		}
		for _, i := range sw.Variants {
			sw.Labels = append(sw.Labels, sweepLabel(r.Variants[i].Sweep, sw.Keys))
		}
		judgeSweep(r, sw, base, comps)
	}
	return out
}

// judgeSweep fills sw.Top, Plateau, Best, Family and Caution
// (sweepPlateau over the values' rates, in chart order). comps are the
// run's comparisons with its baseline base: a claim that involves the
// baseline must agree with its comparison.
func judgeSweep(r *results.Run, sw *SweepSummary, base int, comps []stats.Comparison) {
	samples := make([][]float64, len(sw.Variants))
	for k, i := range sw.Variants {
		samples[k] = r.Variants[i].Rates()
	}
	agree := func(top, other int) bool {
		t, o := sw.Variants[top], sw.Variants[other]
		switch base {
		case o: // the top against the baseline: "top − base" significant and positive
			return comps[t].Significant && comps[t].DeltaPct > 0
		case t:
			return comps[o].Significant && comps[o].DeltaPct < 0
		}
		return true
	}
	j := sweepPlateau(samples, agree)
	sw.Top, sw.Best, sw.Family, sw.Caution = -1, -1, j.Family, j.Caution
	if j.Top < 0 {
		return
	}
	sw.Top = sw.Variants[j.Top]
	for _, k := range j.Plateau {
		sw.Plateau = append(sw.Plateau, sw.Variants[k])
	}
	if j.Best >= 0 {
		sw.Best = sw.Variants[j.Best]
	}
}

// sweepJudgement is what sweepPlateau concludes, in indexes of its
// samples.
type sweepJudgement struct {
	stats.Pairs
	// Plateau is Top and every measured sample not below it; Best is Top
	// when the plateau is Top alone, -1 otherwise.
	Plateau []int
	Best    int
}

// sweepPlateau is a sweep's rule on its values' rates (PairPlateau with
// agree): samples with fewer than two values stay on the plateau (they
// cannot be excluded), samples without any are on none. When no pair of
// values could be tested (Family 0: every value measured once, or only
// one value measured twice) the sweep claims nothing: no best and no
// plateau, only its Top, for a value measured alone is not "faster than
// every other" and values never compared are not "not slower".
func sweepPlateau(samples [][]float64, agree func(top, other int) bool) sweepJudgement {
	j := sweepJudgement{Pairs: stats.PairPlateau(samples, agree), Best: -1}
	if j.Top < 0 || j.Family == 0 {
		return j
	}
	for k, s := range samples {
		if k == j.Top || (!j.Below[k] && len(s) > 0) {
			j.Plateau = append(j.Plateau, k)
		}
	}
	if len(j.Plateau) == 1 {
		j.Best = j.Top
	}
	return j
}

// sweptKeys are the swept keys of r's variants vs whose value differs
// between them (a key one variant lacks differs), sorted; all their keys
// when none differs.
func sweptKeys(r *results.Run, vs []int) []string {
	all := map[string]bool{}
	for _, i := range vs {
		for key := range r.Variants[i].Sweep {
			all[key] = true
		}
	}
	var keys, varying []string
	for key := range all {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	first := r.Variants[vs[0]].Sweep
	for _, key := range keys {
		v0, ok0 := first[key]
		for _, i := range vs[1:] {
			if v, ok := r.Variants[i].Sweep[key]; ok != ok0 || v != v0 {
				varying = append(varying, key)
				break
			}
		}
	}
	if len(varying) == 0 {
		return keys
	}
	return varying
}

// SweptNumber parses a swept value as a number, and says whether it is
// one: surrounding space and a trailing "%" are allowed ("33%" is 33);
// NaN and infinities are not numbers.
func SweptNumber(s string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
}

// sweepLabel renders a variant's swept values: the value for one key,
// "k1=v1 k2=v2" for several.
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

// repWarnings returns, for every repetition of r for which line says
// something, "variant V, repetition N: " and what it says.
func repWarnings(r *results.Run, line func(*results.Rep) notes.Note) []string {
	var ws []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			if l := line(&v.Reps[j]); !l.IsZero() {
				ws = append(ws, inRep(v, &v.Reps[j], l).String())
			}
		}
	}
	return ws
}
