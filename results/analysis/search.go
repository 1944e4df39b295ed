package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
	"slices"
	"strconv"
	"strings"
)

// SearchSummary is what a search found, for every report.
type SearchSummary struct {
	Search *results.Search
	// Points are the visited values in grid order.
	Points []SearchPoint
	// Best indexes the highest mean score among points measured twice or
	// more (all when none is); -1 when nothing was measured.
	Best int
	// Plateau indexes the points not significantly worse than Best, in
	// grid order; PlateauLow is the first, -1 when none.
	Plateau    []int
	PlateauLow int
	// Windows measured, of a full Grid.
	Windows, Grid int
	// Family is the number of pairs judged together; Caution is set when
	// a point on trial had fewer than three windows.
	Family  int
	Caution string
	// Predicted is what start: predicted started from; nil otherwise.
	Predicted *SearchPrediction
}

// SearchPoint is one visited value.
type SearchPoint struct {
	// Value is the variable's, Index its grid position.
	Value   string
	Variant string
	Index   int
	// Visits are the 1-based visit numbers of its windows.
	Visits []int
	// Stats are the Scores' in the objective's unit (ms for ObjectiveP99).
	Scores []float64
	Stats  stats.Stats
	// Plateau is true on the plateau; Untested when measured once.
	Plateau, Untested bool
}

// SummarizeSearch returns what the search of r found; nil when r has none.
func SummarizeSearch(r *results.Run) *SearchSummary {
	s := r.Search
	if s == nil {
		return nil
	}
	sum := &SearchSummary{Search: s, Best: -1, PlateauLow: -1, Windows: len(s.Visits), Grid: len(s.Values)}
	byName := map[string]*results.Variant{}
	for i := range r.Variants {
		if s.Member(&r.Variants[i]) {
			byName[r.Variants[i].Name] = &r.Variants[i]
		}
	}
	at := map[string]int{}
	for n, vis := range s.Visits {
		k, ok := at[vis.Variant]
		if !ok {
			k = len(sum.Points)
			at[vis.Variant] = k
			sum.Points = append(sum.Points, SearchPoint{Value: vis.Value, Variant: vis.Variant, Index: slices.Index(s.Values, vis.Value)})
		}
		p := &sum.Points[k]
		p.Visits = append(p.Visits, n+1)
		if v := byName[vis.Variant]; v != nil {
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
	switch s.Search.Maximize {
	case results.ObjectiveRatePerCPU:
		return "req/s per server CPU-second"
	case results.ObjectiveP99:
		return "ms p99 handshake"
	}
	return "req/s"
}

// Lines says what the search found: its budget, the best value and the
// plateau.
func (s *SearchSummary) Lines() []string {
	se := s.Search
	what := "maximize " + string(se.Maximize)
	if se.Maximize == results.ObjectiveP99 {
		what = "minimize p99 handshake"
	}
	lines := []string{fmt.Sprintf("search %s: %s over %d values (%s … %s), %s: %d windows of a budget of %d; the full grid would need %d",
		se.Series, se.Key, s.Grid, first(se.Values), last(se.Values), what, s.Windows, se.Budget, s.Grid)}
	if s.Best < 0 {
		return append(lines, "no window measured yet")
	}
	b := &s.Points[s.Best]
	ci := "no 95 % CI (one window)"
	if b.Stats.HasCI {
		ci = fmt.Sprintf("95 %% CI %s … %s", format.Number(b.Stats.CI95Low), format.Number(b.Stats.CI95High))
	}
	lines = append(lines, fmt.Sprintf("best %s = %s: %s %s (%s, %d windows)", se.Key, b.Value, format.Number(b.Stats.Mean), s.Unit(), ci, b.Stats.N))
	if p := s.Predicted; p != nil && p.Value != "" {
		lines = append(lines, fmt.Sprintf("predicted from both ends: best %s = %s (%s); the search confirmed around it", se.Key, p.Value, notes.SoftRatioWords(*p.Prediction)))
	} else if p != nil {
		lines = append(lines, fmt.Sprintf("predicted from both ends: none (%s); the search fell back to its coarse pass", notes.SoftRatioWords(*p.Prediction)))
	}
	var vals []string
	for _, i := range s.Plateau {
		vals = append(vals, s.Points[i].Value)
	}
	line := fmt.Sprintf("plateau (not significantly worse than the best, Holm-adjusted t-test on the log scale): %s; lowest %s = %s",
		strings.Join(vals, ", "), se.Key, s.Points[s.PlateauLow].Value)
	if s.Caution != "" {
		line += "; caution: " + s.Caution
	}
	lines = append(lines, line)
	var once []string
	for _, p := range s.Points {
		if p.Untested {
			once = append(once, p.Value)
		}
	}
	if len(once) > 0 {
		lines = append(lines, fmt.Sprintf("measured once, so not tested and on no plateau: %s", strings.Join(once, ", ")))
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

func first(xs []string) string {
	if len(xs) == 0 {
		return format.Missing
	}
	return xs[0]
}

func last(xs []string) string {
	if len(xs) == 0 {
		return format.Missing
	}
	return xs[len(xs)-1]
}

// searchSweep makes the search's sweep show the search's plateau, and a
// best only when it is the plateau alone with every other point tested.
func searchSweep(r *results.Run, rs *RunSummary) {
	ss := SummarizeSearch(r)
	if ss == nil {
		return
	}
	index := map[string]int{}
	for i := range r.Variants {
		index[r.Variants[i].Name] = i
	}
	for k := range rs.Sweeps {
		sw := &rs.Sweeps[k]
		if sw.Series != ss.Search.Series {
			continue
		}
		for _, i := range sw.Plateau {
			rs.Variants[i].Plateau = false
		}
		if sw.Best >= 0 {
			rs.Variants[sw.Best].Best = false
		}
		sw.Plateau, sw.Best = nil, -1
		untested := false
		for _, p := range ss.Points {
			untested = untested || p.Untested
		}
		for _, pi := range ss.Plateau {
			if i, ok := index[ss.Points[pi].Variant]; ok {
				sw.Plateau = append(sw.Plateau, i)
				rs.Variants[i].Plateau = true
			}
		}
		sw.Family, sw.Caution = ss.Family, ss.Caution
		if len(sw.Plateau) == 1 && !untested && ss.Best >= 0 {
			sw.Best = index[ss.Points[ss.Best].Variant]
			rs.Variants[sw.Best].Best = true
		}
	}
}
