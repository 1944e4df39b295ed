package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/search"
)

// searchRecord is the record of plan's search, without visits; nil when none.
func searchRecord(p *plans.Plan) *results.Search {
	s := p.Search
	if s == nil {
		return nil
	}
	rec := &results.Search{Series: s.Series, Key: s.Key, Maximize: s.Maximize, Budget: s.Budget}
	if s.Predicted {
		rec.Start = "predicted"
	}
	for k := range s.Points {
		rec.Values = append(rec.Values, s.Value(p, k))
	}
	return rec
}

// searchWindows is the search driver: after the other variants, package
// search names the next grid point from the windows so far (a resumed
// run's too), each measured as a session. It ends when done or on failure.
func (c *controller) searchWindows(ctx context.Context, p *plans.Plan, run *results.Run) error {
	s := p.Search
	if s == nil {
		return nil
	}
	cfg := search.Config{Points: s.Points, Budget: s.Budget}
	if s.Predicted {
		var memo *analysis.SearchPrediction
		cfg.Predict = func(search.Window, search.Window) (int, bool) { return predictPoint(p, run, &memo) }
	}
	done := c.searchDone(run)
	if len(done) > 0 {
		fmt.Fprintf(c.opts.Log, "search: %d windows measured before, reused\n", len(done))
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		st := search.Next(cfg, done)
		if st.Done {
			fmt.Fprintf(c.opts.Log, "search: done after %d windows: %s\n", len(done), st.Why)
			break
		}
		vi := s.First + st.Point
		rv := &run.Variants[vi]
		fmt.Fprintf(c.opts.Log, "search window %d/%d: %s = %s (%s: %s)\n", len(done)+1, s.Budget, s.Key, s.Value(p, st.Point), st.Phase, st.Why)
		before := len(rv.Reps)
		err := c.session(ctx, p, session{variant: vi, reps: []int{before}}, rv)
		if len(rv.Reps) > before {
			score, _ := results.SearchScore(s.Maximize, &rv.Reps[len(rv.Reps)-1]) // its visit is in the record
			done = append(done, search.Window{Point: st.Point, Score: score})
		}
		if err != nil {
			return err
		}
	}
	c.searchWarnings(cfg, done, run)
	return nil
}

// predictPoint is the grid point nearest the best soft ratio predicted
// from both ends (analysis.StartPrediction), kept in *memo once found.
func predictPoint(p *plans.Plan, run *results.Run, memo **analysis.SearchPrediction) (int, bool) {
	if *memo == nil {
		*memo = analysis.StartPrediction(run)
	}
	for k := range p.Search.Points {
		if v := (*memo).Value; v != "" && p.Search.Value(p, k) == v {
			return k, true
		}
	}
	return 0, false
}

// searchDone returns the search's windows already in run, in visit order.
func (c *controller) searchDone(run *results.Run) []search.Window {
	s := c.plan.Search
	var done []search.Window
	for _, vis := range run.Search.Visits {
		for k := range s.Points {
			v := &run.Variants[s.First+k]
			if i := slices.IndexFunc(v.Reps, func(r results.Rep) bool { return r.Index == vis.Rep }); v.Name == vis.Variant && i >= 0 {
				score, _ := results.SearchScore(s.Maximize, &v.Reps[i])
				done = append(done, search.Window{Point: k, Score: score})
			}
		}
	}
	return done
}

// searchWarnings warns that the coarse pass was not unimodal, or that the
// budget allowed no refinement.
func (c *controller) searchWarnings(cfg search.Config, done []search.Window, run *results.Run) {
	s := c.plan.Search
	a := search.Analyze(cfg, done)
	var ws []notes.Note
	if !a.Unimodal {
		vals := searchValues(c.plan, a.LocalBests)
		ws = append(ws, notes.New(notes.SearchNotUnimodal, "series", s.Series, "key", s.Key, "values", strings.Join(vals, ", ")))
	}
	if !a.Refined && a.Windows > 0 && a.Predicted >= 0 {
		ws = append(ws, notes.New(notes.SearchUnrefined, "series", s.Series, "budget", cfg.Budget))
	} else if !a.Refined && a.Windows > 0 && cfg.Points > len(search.CoarsePoints(cfg)) {
		ws = append(ws, notes.New(notes.SearchUnrefined, "series", s.Series, "budget", cfg.Budget, "values", strings.Join(searchValues(c.plan, search.CoarsePoints(cfg)), ", ")))
	}
	for _, n := range ws {
		if w := n.Warning(); !run.Warnings.Has(w) {
			c.warn(w)
		}
	}
}

// searchValues are the search key's values at the grid points ks.
func searchValues(p *plans.Plan, ks []int) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = p.Search.Value(p, k)
	}
	return out
}

// SearchPlan describes, for --dry-run, how plan's search spends its budget
// and its worst-case duration; "" without a search.
func SearchPlan(p *plans.Plan) string {
	s := p.Search
	if s == nil {
		return ""
	}
	cfg := search.Config{Points: s.Points, Budget: s.Budget}
	coarse := searchValues(p, search.CoarsePoints(cfg))
	first := fmt.Sprintf("coarse pass %s = %s (%d windows)", s.Key, strings.Join(coarse, ", "), len(coarse))
	if s.Predicted {
		first = fmt.Sprintf("both ends %s = %s, %s, then the value predicted from them and its neighbours (the coarse pass %s if it predicts none)", s.Key, s.Value(p, 0), s.Value(p, s.Points-1), strings.Join(coarse, ", "))
	}
	return fmt.Sprintf("search plan: %s; then golden section around each local best until grid resolution; at least the last %d windows repeat the best and the values within noise of it (at most %d windows each); at most %d windows (the full grid: %d), worst case %s plus server restarts",
		first, search.RepeatReserve(cfg), search.MaxWindowsPerPoint, s.Budget, s.Points, s.WorstCase(p))
}
