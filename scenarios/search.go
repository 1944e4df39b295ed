package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// DefaultSearchBudget is the windows a search measures when its budget is
// not given.
const DefaultSearchBudget = 12

// pendingSearch is the searched entry as variants found it.
type pendingSearch struct {
	plans.Search        // its Series, Key, First and Points
	path         string // variants[i]
	spec         *SearchSpec
}

// searchSweep checks variants[i].search and returns its variable as a
// one-key sweep, so that its grid expands like a sweep's.
func (c *compiler) searchSweep(path string, vs VariantSpec) (Sweep, bool) {
	spec := vs.Search
	sp := path + ".search"
	ok := true
	if vs.Sweep != nil {
		what := "give one of them"
		if spec.Param != nil && len(vs.Sweep) == 1 && vs.Sweep[0].Key == spec.Param.Key {
			what = fmt.Sprintf("%s is both swept and searched", spec.Param.Key)
		}
		c.errorf(sp, "sweep and search in one variant entry: %s (search one variable; sweep others in their own entries)", what)
		ok = false
	}
	if c.search != nil {
		c.errorf(sp, "%s already searches a variable; a scenario searches one", c.search.path)
		ok = false
	}
	if spec.Param == nil {
		c.errorf(sp, "no variable to search (want e.g. {ratio: {from: 0, to: 100, step: 1}, maximize: req/s, budget: 12})")
		ok = false
	}
	if !ok {
		return nil, false
	}
	c.search = &pendingSearch{path: path, spec: spec}
	c.search.Series, c.search.Key = *vs.Name, spec.Param.Key
	return Sweep{*spec.Param}, true
}

// objectives are the accepted spellings of maximize, by objective.
var objectives = map[string]results.Objective{
	"req/s":                       results.ObjectiveRate,
	"req/s per server cpu-second": results.ObjectiveRatePerCPU,
	"req/s per server cpu second": results.ObjectiveRatePerCPU,
	"-p99 handshake":              results.ObjectiveP99,
	"−p99 handshake":              results.ObjectiveP99,
}

// searchPlan resolves the searched entry's objective and budget; nil when
// there is none.
func (c *compiler) searchPlan(p *plans.Plan) *plans.Search {
	ps := c.search
	if ps == nil || ps.Points == 0 {
		return nil
	}
	for i, vs := range c.s.Variants { // a record tells the search's windows by their name template
		if path := fmt.Sprintf("variants[%d]", i); path != ps.path && vs.Name != nil && *vs.Name == ps.Series {
			c.errorf(path+".name", "%q is the name of the searched entry %s too: give this entry a name of its own",
				ps.Series, ps.path)
		}
	}
	sp := ps.path + ".search"
	s := &ps.Search
	s.Maximize, s.Budget = results.ObjectiveRate, DefaultSearchBudget
	if m := ps.spec.Maximize; m != nil {
		o, ok := objectives[strings.ToLower(strings.Join(strings.Fields(*m), " "))]
		if !ok {
			c.errorf(sp+".maximize", "want req/s, req/s per server CPU-second or -p99 handshake, got %q", *m)
		}
		s.Maximize = o
	}
	// start: predicted maps the soft-ratio prediction (KAE_GO_SOFT_RATIO, 0-100) to a grid point.
	st := choice(c, sp+".start", ps.spec.Start, "coarse", "predicted or coarse", "predicted", "coarse")
	// A tainted env has its own problem reported.
	if st == "predicted" && !c.s.tainted(ps.path+".env."+softRatioEnv) {
		i := slices.IndexFunc(p.Variants[s.First:s.First+s.Points], func(v plans.Variant) bool {
			pct, err := strconv.ParseFloat(v.Env[softRatioEnv], 64)
			return err != nil || pct < 0 || pct > 100
		})
		if s.Predicted = i < 0; !s.Predicted {
			v := p.Variants[s.First+i]
			c.errorf(sp+".start", "predicted needs every searched variant to set %s to a number from 0 to 100 (e.g. env: {%s: \"{%s}\"}); %s sets %q", softRatioEnv, softRatioEnv, s.Key, v.Name, v.Env[softRatioEnv])
		}
	}
	switch b := ps.spec.Budget; {
	case b.Windows != nil:
		s.Budget = *b.Windows
		if s.Budget < 1 || s.Budget > plans.MaxSearchBudget {
			c.errorf(sp+".budget", "want 1 to %d windows, got %d", plans.MaxSearchBudget, s.Budget)
		}
	case b.Duration != nil:
		s.BudgetTime = *b.Duration
		window := p.Load.Warmup + p.Load.Duration + p.Cooldown
		switch {
		case s.BudgetTime <= 0:
			c.errorf(sp+".budget", "want a positive duration, got %s", s.BudgetTime)
		case window <= 0:
		case s.BudgetTime < window:
			c.errorf(sp+".budget", "%s is less than one window (%s: warm-up + duration + cooldown)", s.BudgetTime, window)
		default:
			s.Budget = min(int(s.BudgetTime/window), plans.MaxSearchBudget)
		}
	}
	return s
}

// softRatioEnv is the soft ratio's variable (analysis.SoftRatioEnv).
const softRatioEnv = "KAE_GO_SOFT_RATIO"
