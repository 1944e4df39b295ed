package analysis

import (
	"cmp"
	"encoding/json"
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

// SearchSummary is what a search found. Best indexes the highest mean score among points measured
// twice or more (all when none is; -1: none); Plateau the points not significantly worse, in order.
type SearchSummary struct {
	Search        *results.Search
	Points        []SearchPoint // the visited values in grid order
	Best          int
	Plateau       []int
	PlateauLow    int    // the first of Plateau, -1 when none
	Windows, Grid int    // windows measured, of a full grid
	Family        int    // pairs judged together
	Caution       string // set when a point on trial had fewer than three windows
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
			k = len(sum.Points)
			sum.Points = append(sum.Points, SearchPoint{Value: vis.Value, Variant: vis.Variant, Index: slices.Index(s.Values, vis.Value)})
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
	for _, i := range plateau {
		sum.Points[i].Plateau = true
	}
	for _, i := range untested {
		sum.Points[i].Untested = true
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
