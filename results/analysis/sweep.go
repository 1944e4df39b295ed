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

// sweeps groups the variants of r by Series into SweepSummaries; a claim involving the baseline must agree
// with its comparison.
func sweeps(r *results.Run, base int, comps []stats.Comparison) []SweepSummary {
	var out []SweepSummary
	for i, v := range r.Variants {
		sw := entry(&out, func(s SweepSummary) bool { return s.Series == v.Series }, SweepSummary{Series: v.Series})
		sw.Variants = append(sw.Variants, i)
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
		var samples [][]float64
		for _, i := range sw.Variants {
			sw.Labels = append(sw.Labels, sweepLabel(r.Variants[i].Sweep, sw.Keys))
			samples = append(samples, r.Variants[i].Rates())
			if sw.Numeric {
				sw.Values = append(sw.Values, values[i])
			}
		}
		sweepPlateau(sw, samples, func(top, other int) bool {
			t, o := sw.Variants[top], sw.Variants[other]
			switch base {
			case o: // the top against the baseline: "top − base" significant and positive
				return comps[t].Significant && comps[t].DeltaPct > 0
			case t:
				return comps[o].Significant && comps[o].DeltaPct < 0
			}
			return true
		})
	}
	return out
}

// sweepPlateau judges sw by PairPlateau of its variants' samples; with no pair tested it claims nothing but
// Top. Samples with one value stay on the plateau, empty ones on none; values never compared are not ranked.
func sweepPlateau(sw *SweepSummary, samples [][]float64, agree func(top, other int) bool) {
	j := stats.PairPlateau(samples, agree)
	sw.Top, sw.Best, sw.Family, sw.Caution = -1, -1, j.Family, j.Caution
	if j.Top >= 0 {
		sw.Top = sw.Variants[j.Top]
	}
	if j.Top < 0 || j.Family == 0 {
		return
	}
	for _, k := range slices.Sorted(slices.Values(slices.Concat(j.Plateau, j.Untested))) { // untested are not below Top
		sw.Plateau = append(sw.Plateau, sw.Variants[k])
	}
	if len(sw.Plateau) == 1 {
		sw.Best = sw.Top
	}
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
	sum := &SearchSummary{Search: s, Best: -1, PlateauLow: -1, Grid: len(s.Values), Predicted: StartPrediction(r)}
	for _, vis := range s.Visits {
		v := findVariant(r, vis.Variant)
		if v == nil || !s.Member(v) { // a swept entry's window that an older kaeload took for a visit
			continue
		}
		sum.Windows++
		p := entry(&sum.Points, func(p SearchPoint) bool { return p.Variant == vis.Variant },
			SearchPoint{Value: vis.Value, Variant: vis.Variant, Index: slices.Index(s.Values, vis.Value)})
		p.Visits = append(p.Visits, sum.Windows)
		for i := range v.Reps {
			if v.Reps[i].Index == vis.Rep {
				score, _ := results.SearchScore(s.Maximize, &v.Reps[i])
				p.Scores = append(p.Scores, score)
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
	sum.Best, sum.Plateau, sum.Family, sum.Caution = j.Top, j.Plateau, j.Family, j.Caution
	for i := range sum.Points {
		p := &sum.Points[i]
		p.Plateau, p.Untested = slices.Contains(j.Plateau, i), slices.Contains(j.Untested, i)
	}
	if len(j.Plateau) > 0 {
		sum.PlateauLow = j.Plateau[0]
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

// searchSweep shows the search's plateau, and a best only when alone on it with every point tested.
func searchSweep(r *results.Run, rs *RunSummary, ss *SearchSummary) {
	k := slices.IndexFunc(rs.Sweeps, func(w SweepSummary) bool { return ss != nil && w.Series == ss.Search.Series })
	if k < 0 {
		return
	}
	sw := &rs.Sweeps[k] // a series is one sweep
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

const (
	// SoftRatioEnv sets the % of signatures kept in software (KAE's; the built-in accelerator's too).
	SoftRatioEnv = "KAE_GO_SOFT_RATIO"
	versionTLS13 = 0x0304 // crypto/tls.VersionTLS13 (results imports no TLS)
)

// softRatio predicts the best soft ratio from windows at two or more; a flagged one gives only its CPU.
func softRatio(r *results.Run, reps [][]RepReport) *softratio.Prediction {
	var in softratio.Input
	ratios := map[float64]bool{}
	for i := range r.Variants {
		v := &r.Variants[i]
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil || pct < 0 || pct > 100 || v.Env["KAELOAD_ACCEL"] == "off" {
			continue
		}
		for j := range v.Reps {
			rep, ra := &v.Reps[j], &reps[i][j]
			u := ra.ServerCPUs // the model needs the server's CPU time
			if rep.Failed != nil || rep.ServerCPU == nil || rep.Total.Requests == 0 || u == nil || !u.HasServer {
				continue
			}
			in.Windows = append(in.Windows, softratio.Window{Ratio: pct / 100, Rate: rep.Total.Rate(),
				CPUPerRequest: rep.ServerCPU.Seconds / float64(rep.Total.Requests), Busy: u.Server,
				CPUs: len(cpuList(u.CPUs)), Saturated: u.Server >= results.ServerSaturatedBusy,
				OtherBound: !ra.Flagged().IsZero()})
			ratios[pct/100] = true
		}
	}
	if len(ratios) < 2 {
		return nil
	}
	in.Capacity = deviceCapacity(readPlan(r.Plan))
	p := softratio.Predict(in)
	return &p
}

// deviceCapacity is D as the plan gives it: the built-in target's simulated device's, else the
// accelerator section's; 0 when neither.
func deviceCapacity(p planView) float64 {
	switch {
	case p.Target.Builtin != nil && p.Target.Builtin.Accel != nil:
		return p.Target.Builtin.Accel.Capacity
	case p.Accelerator != nil:
		return p.Accelerator.Capacity
	}
	return 0
}

// planView is what the analysis reads of an encoded Plan (results imports no plans); json matches a
// key to a field's name in any case, so only max_version needs its tag.
type planView struct {
	Target struct {
		TLS *struct {
			MaxVersion uint16 `json:"max_version"`
		}
		Builtin *struct{ Accel *struct{ Capacity float64 } }
	}
	Accelerator *struct{ Capacity float64 }
	Variants    []struct{ Env map[string]string }
	Search      *struct{ First, Points int }
}

func readPlan(raw json.RawMessage) (p planView) {
	if json.Unmarshal(raw, &p) != nil {
		return planView{}
	}
	return p
}

// Hints say how to measure more cheaply: max_version "1.2" where TLS 1.3 was offered but only 1.2 negotiated.
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
	visited := func(value string) int {
		return slices.IndexFunc(s.Visits, func(v results.Visit) bool { return v.Value == value })
	}
	first, last := visited(s.Values[0]), visited(s.Values[len(s.Values)-1])
	if first < 0 || last < 0 {
		return nil
	}
	n := max(first, last) + 1 // the visits until both ends were measured
	cp := *r
	cp.Search, cp.Variants = nil, slices.Clone(r.Variants)
	for i := range cp.Variants {
		if v := &cp.Variants[i]; s.Member(v) {
			v.Reps = slices.DeleteFunc(slices.Clone(v.Reps), func(rep results.Rep) bool {
				return !slices.Contains(s.Visits[:n], s.Visit(v, &rep))
			})
		}
	}
	pred := cmp.Or(softRatio(&cp, analyzeReps(&cp)), &softratio.Prediction{Status: softratio.TooFewRatios})
	sp := &SearchPrediction{Prediction: pred}
	p := readPlan(r.Plan) // its grid's soft ratios (%): the value nearest the best
	if sp.Prediction.Status != softratio.OK || p.Search == nil || p.Search.Points != len(s.Values) ||
		p.Search.First+p.Search.Points > len(p.Variants) {
		return sp
	}
	best := math.Inf(1)
	for k, v := range p.Variants[p.Search.First : p.Search.First+p.Search.Points] {
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil {
			return &SearchPrediction{Prediction: sp.Prediction} // no value is nearest
		}
		if d := math.Abs(pct - 100*sp.Prediction.Ratio.Value); d < best {
			best, sp.Value = d, s.Values[k]
		}
	}
	return sp
}
