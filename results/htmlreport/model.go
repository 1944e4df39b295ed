package htmlreport

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot/plotter"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// dash is the page's mark for an undefined value (format.Missing in text).
const dash = "—"

// cell is a formatter's result s with format.Missing shown as dash.
func cell(s string) string {
	if s == format.Missing {
		return dash
	}
	return s
}

// variantData is variant Index with its summary, colour, repetitions'
// rates and analyses.
type variantData struct {
	Index int
	V     *results.Variant
	Sum   *analysis.VariantSummary
	Color color.RGBA
	Rates []float64
	Reps  []analysis.RepReport
}

func newVariantData(m *analysis.Report) []variantData {
	r := m.Run
	vs := make([]variantData, len(r.Variants))
	for i := range r.Variants {
		v := &r.Variants[i]
		vs[i] = variantData{Index: i, V: v, Sum: &m.Summary.Variants[i], Color: variantColor(i), Rates: v.Rates(), Reps: m.Reps[i]}
	}
	return vs
}

// measured are the variants with at least one completed repetition.
func measured(vs []variantData) []variantData {
	return slices.DeleteFunc(slices.Clone(vs), func(v variantData) bool { return len(v.V.Reps) == 0 })
}

// cdf is the empirical CDF of h (µs) in ms, exact at the bounds of each
// non-empty bucket, x ≥ 1 µs for a log axis; nil for an empty histogram.
func cdf(h *results.Histogram) plotter.XYs {
	if results.EmptyHistogram(h) {
		return nil
	}
	total := float64(h.TotalCount())
	var pts plotter.XYs
	var cum int64
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		from := max(b.From, results.HistogramMin)
		pts = append(pts, plotter.XY{X: float64(from) / 1000, Y: float64(cum) / total})
		cum += b.Count
		pts = append(pts, plotter.XY{X: float64(max(b.To, from)) / 1000, Y: float64(cum) / total})
	}
	return pts
}

// series is a sweep on the x axis: a numeric one at its numbers, a
// categorical one at its positions. Key is "" when several are swept.
type series struct {
	Name, Key string
	Numeric   bool
	Points    []seriesPoint
}

type seriesPoint struct {
	X     float64
	Label string
	D     variantData
}

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
func firstOf[T any](lines []T, n int) ([]T, int) {
	if len(lines) > n {
		return lines[:n], len(lines) - n
	}
	return lines, 0
}
