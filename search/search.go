package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/kaeload/kaeload/results/stats"
)

// golden is 2 − φ: a golden-section step is this share of the larger gap.
const golden = 0.3819660112501051

// Window is one finished measurement: a 0-based point and its score (higher is better).
type Window struct {
	Point int     `json:"point"`
	Score float64 `json:"score"`
}

// Config is what a search may do.
type Config struct {
	Points int // the grid's size, at least 1
	Budget int // the most windows, at least 1
	// Predict, when set, names the best point from the two ends' first
	// windows, confirmed there and at its neighbours (!ok: the coarse pass).
	// It must be deterministic.
	Predict func(lo, hi Window) (point int, ok bool)
}

// The phases of a Step.
const (
	PhaseCoarse  = "coarse"
	PhaseEnds    = "ends"
	PhaseConfirm = "confirm"
	PhaseRefine  = "refine"
	PhaseRepeat  = "repeat"
	PhaseDone    = "done"
)

// Step is what Next decided.
type Step struct {
	Point int  // -1 when Done
	Done  bool // the budget is spent, or nothing is left worth measuring
	Phase string
	Why   string
}

// CoarsePoints are the coarse pass's points in order: min(Points, Budget,
// clamp(Budget/3+1, 3, 9)) evenly spread with both ends (one: the middle).
func CoarsePoints(cfg Config) []int {
	k := min(max(cfg.Budget/3+1, 3), 9, cfg.Points, cfg.Budget)
	if k <= 0 {
		return nil
	}
	if k == 1 {
		return []int{(cfg.Points - 1) / 2}
	}
	out := make([]int, k)
	for i := range k {
		out[i] = int(math.Round(float64(i) * float64(cfg.Points-1) / float64(k-1)))
	}
	return slices.Compact(out)
}

// MaxWindowsPerPoint bounds the windows of one point: one within noise of
// the best after this many is as good as the best for any budget.
const MaxWindowsPerPoint = 10

// RepeatReserve is the windows kept for repetitions: a sixth of the budget.
func RepeatReserve(cfg Config) int { return cfg.Budget / 6 }

// state is what the finished windows say, per point.
type state struct {
	cfg       Config
	scores    map[int][]float64
	first     []int // the points measured before any refinement, in order
	coarse    []int // first, sorted
	order     []int // visited points, sorted
	predicted int   // Config.Predict's point, -1 without one
}

func newState(cfg Config, done []Window) *state {
	s := &state{cfg: cfg, scores: map[int][]float64{}, first: CoarsePoints(cfg), predicted: -1}
	ends := map[int]Window{}
	for _, w := range done {
		if _, ok := s.scores[w.Point]; !ok {
			s.order = append(s.order, w.Point)
			ends[w.Point] = w
		}
		s.scores[w.Point] = append(s.scores[w.Point], w.Score)
	}
	sort.Ints(s.order)
	if cfg.Predict != nil {
		s.first = s.predictedPoints(ends)
	}
	s.coarse = slices.Sorted(slices.Values(s.first))
	return s
}

// predictedPoints are the ends, then the predicted point and its neighbours.
func (s *state) predictedPoints(first map[int]Window) []int {
	last := s.cfg.Points - 1
	pts := []int{0, last}
	lo, okLo := first[0]
	hi, okHi := first[last]
	if okLo && okHi {
		p, ok := s.cfg.Predict(lo, hi)
		if !ok || p < 0 || p > last {
			return CoarsePoints(s.cfg)
		}
		s.predicted = p
		pts = append(pts, p, p-1, p+1)
	}
	var out []int
	for _, p := range pts {
		if p >= 0 && p <= last && !slices.Contains(out, p) && len(out) < s.cfg.Budget {
			out = append(out, p)
		}
	}
	return out
}

// logMean is p's mean ln(score); −Inf after a failed window, which ranks last.
func (s *state) logMean(p int) float64 {
	xs := s.scores[p]
	sum := 0.0
	for _, x := range xs {
		if x <= 0 {
			return math.Inf(-1)
		}
		sum += math.Log(x)
	}
	return sum / float64(len(xs))
}

func (s *state) visited(p int) bool { _, ok := s.scores[p]; return ok }

// localBests are the coarse points higher than their coarse neighbours,
// highest first; else (ties) the highest coarse point.
func (s *state) localBests() []int {
	c := s.coarse
	var out []int
	for i, p := range c {
		m := s.logMean(p)
		if (i == 0 || m > s.logMean(c[i-1])) && (i == len(c)-1 || m > s.logMean(c[i+1])) {
			out = append(out, p)
		}
	}
	if len(out) == 0 && len(c) > 0 {
		out = []int{s.best(c)}
	}
	sort.SliceStable(out, func(a, b int) bool { return s.logMean(out[a]) > s.logMean(out[b]) })
	return out
}

// best returns the point of ps with the highest mean, the first of equals.
func (s *state) best(ps []int) int {
	return slices.MaxFunc(ps, func(a, b int) int { return cmp.Compare(s.logMean(a), s.logMean(b)) })
}

// bracket is the refinement around one local best.
type bracket struct {
	b, l, r int // best visited point inside and its nearest visited neighbours
	spent   int // first visits between the coarse neighbours, coarse points excluded
}

// bracketOf builds the bracket around coarse local best p, between its
// coarse neighbours (or p itself at an edge).
func (s *state) bracketOf(p int) bracket {
	i := slices.Index(s.coarse, p)
	lo, hi := s.coarse[max(i-1, 0)], s.coarse[min(i+1, len(s.coarse)-1)]
	var br bracket
	var inside []int // sorted, as s.order
	for _, q := range s.order {
		if q >= lo && q <= hi {
			inside = append(inside, q)
			if q > lo && q < hi && !slices.Contains(s.coarse, q) {
				br.spent++
			}
		}
	}
	br.b = s.best(inside)
	j := slices.Index(inside, br.b)
	br.l, br.r = inside[max(j-1, 0)], inside[min(j+1, len(inside)-1)]
	return br
}

// resolved: both grid neighbours of the bracket's best are visited.
func (br bracket) resolved() bool { return br.b-br.l <= 1 && br.r-br.b <= 1 }

// next is the golden-section point: 0.382 of the larger gap from b, ≥ 1 step.
func (br bracket) next() int {
	gl, gr := br.b-br.l, br.r-br.b
	if gr > gl {
		return br.b + max(1, int(math.Round(golden*float64(gr))))
	}
	return br.b - max(1, int(math.Round(golden*float64(gl))))
}

// finished is the Step that ends a search.
func finished(why string) Step { return Step{Point: -1, Done: true, Phase: PhaseDone, Why: why} }

// Next returns the next point to measure after the windows done, or Done.
func Next(cfg Config, done []Window) Step {
	if cfg.Points < 1 || cfg.Budget < 1 {
		return finished("empty grid or no budget")
	}
	if len(done) >= cfg.Budget {
		return finished(fmt.Sprintf("budget of %d windows spent", cfg.Budget))
	}
	s := newState(cfg, done)
	for i, p := range s.first {
		if !s.visited(p) {
			return s.firstStep(i, p)
		}
	}
	left := cfg.Budget - len(done)
	repeats := len(done) - len(s.order)
	reserve := max(0, RepeatReserve(cfg)-repeats)
	var open []bracket
	for _, p := range s.localBests() {
		if br := s.bracketOf(p); !br.resolved() {
			open = append(open, br)
		}
	}
	// The bracket refined least so far goes first; among equals, the one
	// with the highest local best (localBests' order).
	sort.SliceStable(open, func(a, b int) bool { return open[a].spent < open[b].spent })
	refine := func() Step {
		br := open[0]
		return Step{Point: br.next(), Phase: PhaseRefine,
			Why: fmt.Sprintf("golden section between visited points %d and %d around %d", br.l, br.r, br.b)}
	}
	// In the last windows an answer whose best was measured once would
	// have no interval: it is repeated before any further refinement.
	if best := s.best(s.order); left <= RepeatReserve(cfg) && len(s.scores[best]) < 2 {
		if st, ok := s.repeat(); ok {
			return st
		}
	}
	if len(open) > 0 && left > reserve {
		return refine()
	}
	if st, ok := s.extend(); ok {
		return st
	}
	if st, ok := s.repeat(); ok {
		return st
	}
	if len(open) > 0 {
		return refine()
	}
	return finished(fmt.Sprintf("every bracket is resolved, and the best and the points within noise of it have %d windows", MaxWindowsPerPoint))
}

// firstStep is the step that measures s.first[i] = p.
func (s *state) firstStep(i, p int) Step {
	switch {
	case s.cfg.Predict == nil || s.predicted < 0 && len(s.first) > 2:
		return Step{Point: p, Phase: PhaseCoarse, Why: fmt.Sprintf("coarse pass, %d points evenly spread", len(s.first))}
	case i < 2:
		return Step{Point: p, Phase: PhaseEnds, Why: "measure both ends to predict the best point"}
	}
	return Step{Point: p, Phase: PhaseConfirm, Why: fmt.Sprintf("confirm the predicted point %d and its neighbours", s.predicted)}
}

// noise is the standard deviation of ln(score) pooled over the points with
// two windows or more, and its degrees of freedom (0: none).
func (s *state) noise() (sd float64, df int) {
	var ss float64
	for _, p := range s.order {
		xs, m := s.scores[p], s.logMean(p)
		if len(xs) < 2 || math.IsInf(m, 0) {
			continue
		}
		for _, x := range xs {
			d := math.Log(x) - m
			ss += d * d
		}
		df += len(xs) - 1
	}
	if df == 0 {
		return 0, 0
	}
	return math.Sqrt(ss / float64(df)), df
}

// contender reports whether visited point p is within noise of best: a
// t-test on ln(score) that is not significant when both have two windows,
// else a difference of means under Student's t(0.995) times the pooled
// standard error, wide while the noise rests on few windows.
func (s *state) contender(best, p int) bool {
	a, b := s.scores[best], s.scores[p]
	if len(a) >= 2 && len(b) >= 2 {
		c := stats.Compare(a, b)
		return c.Test == stats.TestNone || c.PValue >= stats.Alpha
	}
	sd, df := s.noise()
	if df == 0 {
		return false
	}
	d := s.logMean(best) - s.logMean(p)
	return d < stats.StudentTQuantile(0.995, float64(df))*sd*math.Sqrt(1/float64(len(a))+1/float64(len(b)))
}

// extend measures where the plateau may go on: once the best has two
// windows, the highest unvisited neighbour of the best or of a point the
// t-test cannot tell from it, lest a flat top wider than a coarse step be
// left partly unmeasured.
func (s *state) extend() (Step, bool) {
	best := s.best(s.order)
	if len(s.scores[best]) < 2 || math.IsInf(s.logMean(best), -1) {
		return Step{}, false
	}
	var equal []int
	for _, p := range s.order {
		if p == best || len(s.scores[p]) >= 2 && s.contender(best, p) {
			equal = append(equal, p)
		}
	}
	sort.SliceStable(equal, func(a, b int) bool { return s.logMean(equal[a]) > s.logMean(equal[b]) })
	for _, p := range equal {
		for _, q := range []int{p - 1, p + 1} {
			if q >= 0 && q < s.cfg.Points && !s.visited(q) {
				return Step{Point: q, Phase: PhaseRefine, Why: fmt.Sprintf(
					"the plateau may go on past %d, within noise of the best point %d: its neighbour %d is unmeasured", p, best, q)}, true
			}
		}
	}
	return Step{}, false
}

// repeat measures again the best until it has two windows, then the one
// with the fewest windows among it and its contenders (higher mean first).
func (s *state) repeat() (Step, bool) {
	best := s.best(s.order)
	if math.IsInf(s.logMean(best), -1) {
		return Step{}, false
	}
	why := fmt.Sprintf("repeat the best point %d: its interval needs a second window", best)
	if len(s.scores[best]) < 2 {
		return Step{Point: best, Phase: PhaseRepeat, Why: why}, true
	}
	var cands []int
	for _, p := range s.order {
		if (p == best || s.contender(best, p)) && len(s.scores[p]) < MaxWindowsPerPoint {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return Step{}, false
	}
	slices.SortStableFunc(cands, func(a, b int) int {
		return cmp.Or(cmp.Compare(len(s.scores[a]), len(s.scores[b])), cmp.Compare(s.logMean(b), s.logMean(a)))
	})
	p, why := cands[0], fmt.Sprintf("repeat %d: within noise of the best point %d", cands[0], best)
	if p == best {
		why = fmt.Sprintf("repeat the best point %d (no other is within noise with fewer windows)", p)
	}
	return Step{Point: p, Phase: PhaseRepeat, Why: why}, true
}

// Answer is what a search found.
type Answer struct {
	Best  int         // the visited point with the highest mean score (-1: none)
	Stats stats.Stats // Best's scores'
	// Plateau are the visited points not significantly worse than Best,
	// ascending; Untested those with too few windows to test.
	Plateau    []int
	PlateauLow int // Plateau's lowest, -1 when none
	Untested   []int
	Visited    int // distinct points measured
	Windows    int
	Unimodal   bool  // false when the coarse pass had more than one local best
	LocalBests []int // highest first
	Refined    bool  // the budget lasted beyond the coarse pass
	Resolved   bool  // every local best's bracket reached grid resolution
	Predicted  int   // Config.Predict's point; -1 without one
}

// Analyze returns the answer the windows done give.
func Analyze(cfg Config, done []Window) Answer {
	s := newState(cfg, done)
	a := Answer{Best: -1, PlateauLow: -1, Windows: len(done), Visited: len(s.order), Unimodal: true, Predicted: s.predicted}
	if len(s.order) == 0 {
		return a
	}
	samples := make([][]float64, len(s.order))
	for i, p := range s.order {
		samples[i] = s.scores[p]
	}
	j := stats.PairPlateau(samples, nil)
	a.Best = s.order[j.Top]
	a.Stats = stats.Summarize(s.scores[a.Best])
	for _, i := range j.Plateau {
		a.Plateau = append(a.Plateau, s.order[i])
	}
	for _, i := range j.Untested {
		a.Untested = append(a.Untested, s.order[i])
	}
	if len(a.Plateau) > 0 {
		a.PlateauLow = a.Plateau[0]
	}
	a.Refined = slices.ContainsFunc(s.order, func(p int) bool { return !slices.Contains(s.coarse, p) })
	if !slices.ContainsFunc(s.coarse, func(p int) bool { return !s.visited(p) }) {
		a.LocalBests = s.localBests()
		a.Unimodal = len(a.LocalBests) <= 1
		a.Resolved = !slices.ContainsFunc(a.LocalBests, func(p int) bool { return !s.bracketOf(p).resolved() })
	}
	return a
}
