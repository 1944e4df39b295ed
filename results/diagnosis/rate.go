package diagnosis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// window is a timeline's window as the rate rules judge it.
type window struct {
	interval  time.Duration
	all       []results.Point // every window point (Start >= 0)
	pts       []results.Point // those long enough to judge: at least half the interval
	rates     []float64       // pts' rates
	median    float64         // of rates
	warmup    time.Duration   // the warm-up points' length
	length    time.Duration   // the window's: its points'
	stallList []Stall
	stallsWhy string // why the stalls were not judged; "" when they were
}

func newWindow(t *results.Timeline) window {
	w := window{interval: t.Interval}
	for _, p := range t.Points {
		if p.Start < 0 {
			w.warmup += p.Length
			continue
		}
		w.all = append(w.all, p)
		w.length += p.Length
		if p.Length*2 >= t.Interval {
			w.pts = append(w.pts, p)
			w.rates = append(w.rates, p.Rate())
		}
	}
	if n := len(w.rates); n > 0 {
		s := slices.Sorted(slices.Values(w.rates))
		w.median = (s[(n-1)/2] + s[n/2]) / 2
	}
	w.stallList, w.stallsWhy = w.stalls()
	return w
}

func rateOf(pts []results.Point) float64 {
	var ok float64
	var d time.Duration
	for i := range pts {
		ok += pts[i].Rate() * pts[i].Length.Seconds()
		d += pts[i].Length
	}
	if d <= 0 {
		return 0
	}
	return ok / d.Seconds()
}

// judgeable says why a rule needing need intervals cannot judge; "" when it can.
func (w *window) judgeable(need int) string {
	if len(w.pts) < need {
		return fmt.Sprintf("%d intervals of at least half the interval (%s) in the window, %d needed", len(w.pts), w.interval, need)
	}
	if perInterval := w.median * w.interval.Seconds(); perInterval < MinStallRequests {
		return fmt.Sprintf("the median interval holds %.0f successes, %d needed to tell a stall from counting noise", perInterval, MinStallRequests)
	}
	return ""
}

func (w *window) stalled(i int) bool { return w.rates[i] < StallShare*w.median }

func (w *window) stalls() ([]Stall, string) {
	if why := w.judgeable(MinIntervals); why != "" {
		return nil, why
	}
	var out []Stall
	for i := 0; i < len(w.pts); i++ {
		if !w.stalled(i) {
			continue
		}
		j := i + 1
		for j < len(w.pts) && w.stalled(j) && w.pts[j].Start == w.pts[j-1].End() {
			j++
		}
		out = append(out, Stall{Start: w.pts[i].Start, End: w.pts[j-1].End(), Rate: rateOf(w.pts[i:j]), Median: w.median})
		i = j - 1
	}
	return out, ""
}

func seconds(d time.Duration) string { return notes.Seconds(d.Seconds()) }

// stallDiagnosis is RuleStalls; its consequence compares the rate with that outside the stalls.
func (w *window) stallDiagnosis() ([]Diagnosis, string) {
	if len(w.stallList) == 0 {
		return nil, w.stallsWhy
	}
	var spans [][2]float64
	var figs []string
	var in time.Duration
	for _, s := range w.stallList {
		sp := [2]float64{s.Start.Seconds(), s.End.Seconds()}
		spans = append(spans, sp)
		figs = append(figs, fmt.Sprintf("%s at %s req/s", notes.Span(sp[0], sp[1]), format.Rate(s.Rate)))
		in += s.End - s.Start
	}
	outside := slices.DeleteFunc(slices.Clone(w.all), func(p results.Point) bool {
		within := func(s Stall) bool { return p.Start >= s.Start && p.End() <= s.End }
		return slices.ContainsFunc(w.stallList, within)
	})
	all, rest := rateOf(w.all), rateOf(outside)
	cons := notes.New(notes.StallsConsequence, "all", all, "rest", rest)
	if rest != 0 {
		cons.Args["below"] = 1 - all/rest
	}
	figure := fmt.Sprintf("%s, against a median of %s req/s (%s stalled of %s)", strings.Join(figs, ", "),
		format.Rate(w.median), seconds(in), seconds(w.length))
	cause := notes.New(notes.StallsCause, "median", w.median, "spans", spans)
	return []Diagnosis{{Stalls: w.stallList, Figure: figure, Cause: cause, Consequence: cons,
		Fix: notes.New(notes.StallsFix)}}, ""
}

// notSteady is RuleNotSteady: the thirds' rates beyond the intervals' noise, the runs' and the margin.
func (j *judge) notSteady() ([]Diagnosis, string) {
	if why := j.judgeable(MinSteadyPoints); why != "" {
		return nil, why
	}
	var pts []results.Point
	for i := range j.pts {
		if j.stalled(i) {
			continue
		}
		if j.rates[i] <= 0 {
			return nil, fmt.Sprintf("an interval at %s has no success", seconds(j.pts[i].Start))
		}
		pts = append(pts, j.pts[i])
	}
	n := len(pts)
	if n < MinSteadyPoints {
		return nil, fmt.Sprintf("%d intervals outside the stalls, %d needed", n, MinSteadyPoints)
	}
	k := n / 3
	first, last := pts[:k], pts[n-k:]
	rf, rl := rateOf(first), rateOf(last)
	diff := math.Log(rl / rf)
	// One interval's noise of ln(rate) from successive differences, which a slow trend does not inflate.
	var ss float64
	for i := 1; i < n; i++ {
		d := math.Log(pts[i].Rate()) - math.Log(pts[i-1].Rate())
		ss += d * d
	}
	sigma := math.Sqrt(ss / (2 * float64(n-1)))
	statBound := stats.StudentTQuantile(steadyQuantile, float64(n-1)) * sigma * math.Sqrt(2/float64(k))
	margin := cmp.Or(max(j.opts.Margin, 0), results.DefaultEquivalence) // not positive: the default
	if math.Abs(diff) <= statBound || math.Abs(diff) <= max(j.opts.RepNoise, math.Log1p(margin)) {
		return nil, ""
	}
	change := math.Expm1(diff)
	noise := fmt.Sprintf("the intervals' own noise allows ±%s (3σ of %d intervals, σ %s per interval from successive differences)",
		notes.Percent(math.Expm1(statBound)), n, notes.Percent(sigma))
	if j.opts.RepNoise > 0 {
		noise += ", the repetitions differ by " + notes.Percent(j.opts.RepNoise)
	}
	figure := fmt.Sprintf("first third %s at %s req/s, last third %s at %s req/s: %+.1f %%; %s, the equivalence margin is %s",
		notes.Span(first[0].Start.Seconds(), first[k-1].End().Seconds()), format.Rate(rf),
		notes.Span(last[0].Start.Seconds(), last[k-1].End().Seconds()), format.Rate(rl), change*100, noise, notes.Percent(margin))
	return []Diagnosis{{Figure: figure,
		Cause:       notes.New(notes.NotSteadyCause, "first", rf, "last", rl, "change", change),
		Consequence: notes.New(notes.NotSteadyConsequence),
		Fix:         notes.New(notes.NotSteadyFix, "rising", diff > 0, "warmup_s", j.warmup.Seconds())}}, ""
}
