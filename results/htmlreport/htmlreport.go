package htmlreport

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// Write writes m as report.html: inline CSS and SVG, no script, no outside reference.
func Write(w io.Writer, m *analysis.Report) error {
	var b bytes.Buffer // the whole page, so that a failure writes none of it
	err := pageTemplate.Execute(&b, newPage(m))
	if err == nil {
		_, err = w.Write(b.Bytes())
	}
	if err != nil {
		return fmt.Errorf("write html report %q: %w", m.Run.Name, err)
	}
	return nil
}

// page is what the template renders: the report's own lists as they are, the
// banners' other lines as the text report has them; its sections shadow the report's.
type page struct {
	*analysis.Report
	Started, Finished, Baseline, Threshold, Order, StatsNote, Metrics, Plan string
	Hosts, ClientBound                                                      []string
	ClientBoundMore                                                         int

	Drift, Search, Capacity, Speed *section
	Timeline                       *timelineSection
	Charts                         []chart
	Profile                        *profileSection

	Comparison, Variants, Reps, Groups, Latency, NotCounted, OpenLoop, ServerCost, CPU, Errors, Negotiated, Probes *table
}

// section is a part of the page.
type section struct {
	Heading string
	Lines   []string
	Tables  []*table
	Parts   []section
}

// clientBound is the client-bound threshold as the page writes it: "90 %".
var clientBound = strconv.FormatFloat(results.ClientBoundBusy*100, 'f', -1, 64) + " %"

// maxClientBound is how many client-bound groups the banner lists.
const maxClientBound = 8

// measured are the variants with at least one completed repetition.
func measured(vs []measure.Variant) []measure.Variant {
	return slices.DeleteFunc(slices.Clone(vs), func(v measure.Variant) bool { return len(v.V.Reps) == 0 })
}

// firstOf is the first n of lines and how many more there are.
func firstOf[T any](lines []T, n int) ([]T, int) {
	if len(lines) > n {
		return lines[:n], len(lines) - n
	}
	return lines, 0
}

func newPage(m *analysis.Report) *page {
	r := m.Run
	facts := map[string]string{}
	for _, f := range tables.Facts(m) {
		facts[f.Label] = f.Text
	}
	pg := &page{Report: m, Started: facts["started"], Finished: facts["finished"], Metrics: facts["metrics"],
		Threshold: clientBound,
		Plan:      planText(r.Plan), Hosts: measure.Map(r.Hosts, format.HostLine),
	}
	if len(r.Variants) == 0 {
		return pg
	}
	sum, vs := m.Summary, make([]measure.Variant, len(r.Variants))
	for i := range vs {
		vs[i] = *measure.NewVariant(m, i)
	}
	pg.Baseline, pg.Order, pg.StatsNote = facts["baseline"], facts["order"], tables.StatsNote(sum)
	if nc := sum.NoComparison().String(); nc != "" {
		pg.StatsNote = strings.ToUpper(nc[:1]) + nc[1:]
	}
	if dt, title, ok := tables.Drift(sum); ok {
		pg.Drift = &section{Lines: []string{title}, Tables: []*table{fromTable("", dt)}}
	}
	if ss := m.Search; ss != nil {
		pg.Search = &section{Lines: tables.SearchLines(ss), Tables: []*table{fromTable("", tables.Search(ss))}}
	}
	pg.ClientBound, pg.ClientBoundMore = firstOf(m.ClientBoundGroups.Strings(), maxClientBound)
	pg.Capacity, pg.Charts, pg.Timeline = capacitySectionOf(m), charts(m, vs), timelineSectionOf(vs, m)
	pg.Speed, pg.Profile = speedSectionOf(m.Speed), profileSectionOf(m.Profile)
	pg.addTables(m, vs)
	return pg
}

func charts(m *analysis.Report, vs []measure.Variant) []chart {
	var base *measure.Variant // nil when the baseline was not measured
	if m.Summary.Baseline >= 0 {
		base = &vs[m.Summary.Baseline]
	}
	out := measure.Map(m.Capacities, func(c results.Capacity) chart { return capacityChart(m.Run, &c) })
	ms := measured(vs)
	out = append(out, rateChart(ms))
	for i := range m.Summary.Sweeps {
		sw := &m.Summary.Sweeps[i]
		out = append(out, sweepChart(i, sw, vs, base, tables.PlateauLine(m.Summary, sw), m.SoftRatio))
	}
	ratioOf := map[string]string{}
	for _, v := range m.Run.Variants {
		ratioOf[v.Name] = v.Env[analysis.SoftRatioEnv]
	}
	out = append(out, searchChart(m.Search, m.SoftRatio, ratioOf)...)
	out = append(out,
		cdfChart(ms, "chart-cdf-handshake", "TLS handshake", func(s *analysis.VariantSummary) *results.Histogram { return s.Handshake }),
		cdfChart(ms, "chart-cdf-total", "total request time", func(s *analysis.VariantSummary) *results.Histogram { return s.Total }),
		groupChart(ms))
	return append(out, cpuChart(ms)...)
}

// capacitySectionOf lays out m's capacity answers, a part per variant; nil for none.
func capacitySectionOf(m *analysis.Report) *section {
	r, cs := m.Run, m.Capacities
	if cs == nil {
		return nil
	}
	parts := measure.Map(cs, func(c results.Capacity) section {
		return section{Heading: r.Variants[c.Variant].Name + ": " + notes.KneeWords(&c, r.Capacity.From),
			Tables: []*table{fromTable("", tables.Capacity(&c))}}
	})
	return &section{Heading: m.CapacityLine.String(), Lines: []string{tables.CapacityIntro(r.Capacity)},
		Parts: parts}
}

// speedSectionOf lays out the crypto speed table st; nil for none.
func speedSectionOf(st *analysis.SpeedTable) *section {
	if st == nil {
		return nil
	}
	sec := &section{Heading: st.BaselineName, Lines: st.Commands}
	if st.Baseline < 0 {
		sec.Heading += " (not measured: no Δ %)"
	}
	fails := tables.Table{Header: []string{"variant", "speed command", "error"}}
	for _, f := range st.Failures {
		fails.Add(f.Variant, "speed["+strconv.Itoa(f.Command)+"] "+f.CommandLine, f.Error)
	}
	sec.Tables = []*table{fromTable("speed-table", tables.Speed(st)), fromTable("speed-failures", fails)}
	return sec
}

// planText is the plan indented, as given ("" for none) when not valid JSON. A stored plan has "&",
// "<" and ">" escaped by encoding/json; the page shows them as written ("\\" first keeps "\\u0026").
func planText(plan json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, plan, "", "  "); err != nil {
		return string(plan)
	}
	return htmlUnescaped.Replace(b.String())
}

var htmlUnescaped = strings.NewReplacer(`\\`, `\\`, `\u0026`, "&", `\u003c`, "<", `\u003e`, ">")

//go:embed templates/*.html
var templateFiles embed.FS

// pageTemplate is the page and its parts, void elements self-closed: the page is well-formed XML.
var pageTemplate = template.Must(template.New("page.html").ParseFS(templateFiles, "templates/*.html"))
