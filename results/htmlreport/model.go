package htmlreport

import (
	"image/color"
	"math"
	"sort"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// variantData is one variant with everything the report derives from it.
type variantData struct {
	// Index is the variant's position in Run.Variants.
	Index int
	V     *results.Variant
	// Sum is the variant's analysis.VariantSummary: its Stats, its
	// Comparison with the baseline, its latency histograms merged exactly
	// over the repetitions and whether it is the best of its sweep. The
	// page shows these figures, so they are the text and CSV reports'.
	Sum   *analysis.VariantSummary
	Color color.RGBA
	// Rates are the repetitions' total rates, in repetition order.
	Rates []float64
	// Reps are the repetitions' analyses (Report.Reps of the variant).
	Reps []analysis.RepReport
}

// newVariantData pairs every variant of m's run with its summary and
// its repetitions' analyses.
func newVariantData(m *analysis.Report) []variantData {
	r := m.Run
	vs := make([]variantData, len(r.Variants))
	for i := range r.Variants {
		v := &r.Variants[i]
		vs[i] = variantData{Index: i, V: v, Sum: &m.Summary.Variants[i], Color: variantColor(i), Rates: v.Rates(), Reps: m.Reps[i]}
	}
	return vs
}

// measured returns the variants with at least one completed repetition.
func measured(vs []variantData) []variantData {
	var out []variantData
	for _, v := range vs {
		if len(v.V.Reps) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// cdfPoint is one point of an empirical CDF: the fraction Y of recorded
// values that are ≤ X milliseconds.
type cdfPoint struct{ X, Y float64 }

// cdf returns the empirical CDF of h (microseconds) in milliseconds, nil
// for an empty histogram. Each non-empty HDR bucket [From, To] contributes
// the two points (From, fraction below it) and (To, fraction up to and
// including it), so the curve is exact at bucket bounds and linear within a
// bucket. X is at least 1 µs, so the points suit a log axis.
func cdf(h *results.Histogram) []cdfPoint {
	if h == nil || h.Histogram == nil || h.TotalCount() == 0 {
		return nil
	}
	total := float64(h.TotalCount())
	var pts []cdfPoint
	var cum int64
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		from := max(b.From, results.HistogramMin)
		pts = append(pts, cdfPoint{float64(from) / 1000, float64(cum) / total})
		cum += b.Count
		pts = append(pts, cdfPoint{float64(max(b.To, from)) / 1000, float64(cum) / total})
	}
	return pts
}

// groupAgg is one group index of one variant, aggregated over repetitions.
type groupAgg struct {
	Index   int
	CPUs    string
	Threads int
	Slots   int
	// Rates are the group's rates, one per repetition that had the group.
	Rates []float64
	// Busy are the group's CPU busy fractions, one per repetition that
	// measured it.
	Busy []float64
}

// groups aggregates v's groups by Group.Index over its repetitions, in
// index order.
func groups(v *results.Variant) []groupAgg {
	byIndex := map[int]*groupAgg{}
	var order []int
	for i := range v.Reps {
		for j := range v.Reps[i].Groups {
			g := &v.Reps[i].Groups[j]
			a, ok := byIndex[g.Index]
			if !ok {
				a = &groupAgg{Index: g.Index, CPUs: g.CPUs, Threads: g.Threads, Slots: g.Slots}
				byIndex[g.Index] = a
				order = append(order, g.Index)
			}
			a.Rates = append(a.Rates, g.Rate())
			if g.CPU != nil {
				a.Busy = append(a.Busy, g.CPU.Busy)
			}
		}
	}
	sort.Ints(order)
	out := make([]groupAgg, len(order))
	for i, idx := range order {
		out[i] = *byIndex[idx]
	}
	return out
}

// mean is the arithmetic mean of xs; NaN for none.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// repCPU is the CPU picture of one repetition.
type repCPU struct {
	// ClientMax and ClientMean are the busiest and the mean busy fraction
	// of the groups that measured their CPUs; NaN when none did.
	ClientMax, ClientMean float64
	// Busiest is the Group.Index of the busiest group (-1 when none).
	Busiest int
	// Server is the server's busy fraction; NaN when not measured.
	Server float64
	// ServerSeconds is the server's CPU time; NaN when not measured.
	ServerSeconds float64
}

// cpuOf returns the CPU picture of rep, whose analysis is ra: the
// client's figures are ra.ClientCPU's (the analysis computes them).
func cpuOf(rep *results.Rep, ra *analysis.RepReport) repCPU {
	c := repCPU{ClientMax: math.NaN(), ClientMean: math.NaN(), Busiest: -1, Server: math.NaN(), ServerSeconds: math.NaN()}
	if cc := ra.ClientCPU; cc.Measured > 0 {
		c.ClientMax, c.Busiest, c.ClientMean = cc.BusyMax, cc.BusyMaxGroup, cc.BusyMean
	}
	if rep.ServerCPU != nil {
		c.Server, c.ServerSeconds = rep.ServerCPU.Busy, rep.ServerCPU.Seconds
	}
	return c
}

// hasCPU reports whether any repetition of any variant measured client or
// server CPU.
func hasCPU(vs []variantData) bool {
	for _, v := range vs {
		for i := range v.V.Reps {
			c := cpuOf(&v.V.Reps[i], &v.Reps[i])
			if !math.IsNaN(c.ClientMax) || !math.IsNaN(c.Server) {
				return true
			}
		}
	}
	return false
}

// seriesPoint is one variant of a sweep series placed on the x axis.
type seriesPoint struct {
	X     float64
	Label string
	D     variantData
}

// series is a sweep of the analysis (analysis.SweepSummary) placed on
// the x axis.
type series struct {
	Name string
	// Key is the swept key when one is (SweepSummary.Keys); "" when
	// several are.
	Key string
	// Numeric says the series is a numeric sweep (SweepSummary.Numeric):
	// each point's X is its number, and the chart draws a line. Otherwise
	// the series is categorical (certificate names, engines, several keys
	// at once): X is the point's position in run order, and the chart
	// draws a bar per point.
	Numeric bool
	// Points are in the sweep's chart order, labelled with its values.
	Points []seriesPoint
}

// sweepSeries places the analysis's sweeps sws on the x axis; vs are
// the run's variants (newVariantData).
func sweepSeries(sws []analysis.SweepSummary, vs []variantData) []series {
	var out []series
	for k := range sws {
		sw := &sws[k]
		s := series{Name: sw.Series, Numeric: sw.Numeric}
		if len(sw.Keys) == 1 {
			s.Key = sw.Keys[0]
		}
		for n, i := range sw.Variants {
			p := seriesPoint{X: float64(n), Label: sw.Labels[n], D: vs[i]}
			if sw.Numeric {
				p.X = sw.Values[n]
			}
			if p.Label == "" {
				p.Label = vs[i].V.Name
			}
			s.Points = append(s.Points, p)
		}
		out = append(out, s)
	}
	return out
}

// firstOf returns the first n of lines and how many more there are.
func firstOf(lines []string, n int) ([]string, int) {
	if len(lines) > n {
		return lines[:n], len(lines) - n
	}
	return lines, 0
}
