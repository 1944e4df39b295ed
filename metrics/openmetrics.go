package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/measure"
)

// WriteOpenMetrics writes a stored run's timeline as timestamped
// OpenMetrics for promtool: the live series, each from 0 at its first
// interval's start, but the latency histograms and CPU a record lacks.
// Catalogue measures marked OpenMetrics are gauges set at the window's end.
func WriteOpenMetrics(w io.Writer, m *analysis.Report) error {
	r := m.Run
	om := &omWriter{families: map[*family]*omFamily{}, cols: measure.Columns(m, measure.OpenMetrics)}
	run, base := runLabels(r)
	om.sample(famRunInfo, famRunInfo.pairs(run, r.Name, base), 1, r.Started)
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			om.rep(run, v.Name, &v.Reps[j], r.Equivalence, measure.NewRep(m, i, j))
		}
	}
	bw := bufio.NewWriter(w)
	for _, f := range om.order {
		name := f.name
		if f.typ == "counter" {
			name = strings.TrimSuffix(name, "_total")
		}
		fmt.Fprintf(bw, "# TYPE %s %s\n# HELP %s %s\n", name, f.typ, name, omEscape.Replace(f.help))
		for _, key := range f.series {
			for _, s := range f.samples[key] {
				fmt.Fprintf(bw, "%s{%s} %s %s\n", f.name, key, fnum(s.v), fnum(float64(s.at.UnixMilli())/1000))
			}
		}
	}
	bw.WriteString("# EOF\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write openmetrics: %w", err)
	}
	return nil
}

// omWriter collects the samples by family and series, in first-seen order.
type omWriter struct {
	families map[*family]*omFamily
	order    []*omFamily
	cols     []measure.Column
}

type omFamily struct {
	*family
	series  []string
	samples map[string][]omSample
}

type omSample struct {
	v  float64
	at time.Time
}

// sample adds value v of m's series labels at at; one not after the series' last replaces it.
func (om *omWriter) sample(m *family, labels string, v float64, at time.Time) {
	f := om.families[m]
	if f == nil {
		f = &omFamily{family: m, samples: map[string][]omSample{}}
		om.families[m] = f
		om.order = append(om.order, f)
	}
	ss, seen := f.samples[labels]
	if !seen {
		f.series = append(f.series, labels)
	}
	if n := len(ss); n > 0 && !at.After(ss[n-1].at) {
		ss[n-1].v = v
		return
	}
	f.samples[labels] = append(ss, omSample{v, at})
}

func (om *omWriter) rep(run, variant string, rep *results.Rep, margin float64, x *measure.Rep) {
	start := rep.Total.Window.Start
	end := rep.Total.Window.End
	win := []string{run, variant, strconv.Itoa(rep.Index)}
	lv := func(more ...string) []string { return append(slices.Clip(win), more...) }
	first := end
	for i := range rep.Groups {
		g := &rep.Groups[i]
		group := strconv.Itoa(i)
		ivs := rep.GroupTimeline(i)
		var c [nPhases]counts
		emit := func(at time.Time) {
			for p := range nPhases {
				c[p].series(func(f *family, v float64, labels ...string) {
					om.sample(f, f.pairs(lv(append([]string{Phases[p], group}, labels...)...)...), v, at)
				})
			}
		}
		if len(ivs) > 0 {
			at := start.Add(ivs[0].Start)
			if at.Before(first) {
				first = at
			}
			emit(at)
		}
		for _, iv := range ivs {
			p := pWarmup
			if iv.Start >= 0 {
				p = pWindow
			}
			c[p].add(iv.Requests, iv.Errors)
			at := start.Add(iv.End())
			emit(at)
			om.sample(famIntervalRate, famIntervalRate.pairs(lv(group)...), iv.Rate(), at)
			l := famIntervalHandshake.pairs(lv(group)...)
			om.sample(famIntervalHandshake, l+`,quantile="0.5"`, iv.HandshakeP50.Seconds(), at)
			om.sample(famIntervalHandshake, l+`,quantile="0.99"`, iv.HandshakeP99.Seconds(), at)
		}
		final(&c, g)
		emit(end)
	}
	om.netstat(lv, rep, first)
	active := diagnosed(variant, rep, margin)
	for _, rule := range Rules {
		om.sample(famDiagnosis, famDiagnosis.pairs(lv(rule)...), 0, first)
		om.sample(famDiagnosis, famDiagnosis.pairs(lv(rule)...), active[rule], end)
	}
	om.measures(famWindowStart.pairs(win...), x, first, end)
	om.sample(famWindowStart, famWindowStart.pairs(win...), 0, first)
	om.sample(famWindowStart, famWindowStart.pairs(win...), float64(start.UnixNano())/1e9, end)
}

// netstat writes the growth of each kernel counter of each host over the window, from 0 at first.
func (om *omWriter) netstat(lv func(...string) []string, rep *results.Rep, first time.Time) {
	start := rep.Total.Window.Start
	t := rep.Timeline
	if t == nil {
		return
	}
	for h := range t.Hosts {
		host := &t.Hosts[h]
		names := slices.DeleteFunc(slices.Clone(host.Counters), func(n string) bool { _, gone := host.Unavailable[n]; return gone })
		for _, n := range names {
			f := netstatFamily(n)
			labels := f.pairs(lv(side(*host), host.Name)...)
			om.sample(f, labels, 0, first)
			sum := 0.0
			for p := range t.Points {
				if d, ok := t.TCP(p, h, n); ok {
					sum += float64(d)
					om.sample(f, labels, sum, start.Add(t.Points[p].End()))
				}
			}
		}
	}
}

// measures writes x's catalogue OpenMetrics measures as gauges: 0 at first, their value at end.
func (om *omWriter) measures(win string, x *measure.Rep, first, end time.Time) {
	for _, c := range om.cols {
		if v := c.OfRep(x); v.Kind != measure.None {
			name := c.Metric
			if name == "" {
				name = "kaeload_" + c.Key
			}
			f := newFamily(name, "gauge", strings.TrimSpace(c.Label+" ("+c.Unit+")"), winLabels)
			om.sample(f, win, 0, first)
			om.sample(f, win, v.F, end)
		}
	}
}

// omEscape escapes label values and help texts as OpenMetrics does.
var omEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// fnum formats a sample value or timestamp.
func fnum(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
