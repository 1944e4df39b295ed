package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/tables"
)

// doc is a report as text or Markdown from one walk of the sections; an empty text or md argument writes nothing.
type doc struct {
	bytes.Buffer
	md bool
}

// WriteText writes the plain-text report of m for a terminal or a CI log.
func WriteText(w io.Writer, m *analysis.Report) error {
	d := &doc{}
	d.header(m)
	for i := range m.Run.Variants {
		d.variant(m, i)
	}
	d.answers(m)
	if r := m.Run; r.Capacity == nil && len(r.Variants) == 1 && len(r.Variants[0].Reps) == 1 {
		// wrk's last line, for scripts written for wrk's output.
		fmt.Fprintf(d, "\nRequests/sec: %9.2f\n", r.Variants[0].Reps[0].Total.Rate())
	}
	return d.flush(w, "write text report")
}

// WriteMarkdown writes the report of m as GitHub-flavoured Markdown.
func WriteMarkdown(w io.Writer, m *analysis.Report) error {
	d := &doc{md: true}
	d.header(m)
	d.answers(m)
	if len(m.Run.Variants) > 0 {
		d.heading(1, "", "Repetitions")
		d.table(tables.Repetitions(m, measure.Markdown))
	}
	if len(m.Diagnoses) > 0 {
		d.heading(1, "", "Diagnoses")
	}
	for i := range m.Diagnoses {
		d.heading(2, "", tables.DiagnosisTitle(&m.Diagnoses[i]))
		d.facts(tables.DiagnosisRows(&m.Diagnoses[i]), "")
	}
	return d.flush(w, "write markdown report")
}

func (d *doc) flush(w io.Writer, what string) error {
	if _, err := w.Write(d.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// heading is "== text", "-- text" or a blank line and text (levels 1 to 3); "## md" or "### md".
func (d *doc) heading(level int, text, md string) {
	if d.md {
		d.say("", "\n"+strings.Repeat("#", min(level, 2)+1)+" "+mdEscape(md))
	} else {
		d.say("\n"+[...]string{"", "== ", "-- ", ""}[level]+text, "")
	}
}

// say writes the line of d's format; md is markup.
func (d *doc) say(text, md string) {
	if d.md {
		text = md
	}
	if text != "" {
		d.WriteString(text + "\n")
	}
}

func (d *doc) para(text, md string) {
	if d.md && md != "" {
		md = "\n" + md
	}
	d.say(text, md)
}

// list writes lines as they are in text, as a bulleted list in Markdown.
func (d *doc) list(lines []string) {
	if d.md && len(lines) > 0 {
		d.WriteByte('\n')
	}
	for _, l := range lines {
		d.say(l, "- "+mdEscape(l))
	}
}

// facts writes labelled lines: as two columns in text, a list in Markdown.
func (d *doc) facts(ns []tables.Notice, indent string) {
	var t tables.Table
	if d.md {
		d.WriteByte('\n')
	}
	for _, n := range ns {
		t.Add(n.Label, n.Text)
		d.say("", "- **"+n.Label+"** "+mdEscape(n.Text))
	}
	if !d.md {
		d.aligned(t, indent, 0)
	}
}

func (d *doc) table(t tables.Table) {
	if !d.md {
		d.aligned(t, "", 0)
		return
	}
	row := func(cells []string) {
		d.WriteString("\n| " + strings.Join(measure.Map(cells, mdEscape), " | ") + " |")
	}
	row(t.Header)
	d.WriteString("\n|")
	for i := range t.Header {
		sep := "---|"
		if i < len(t.Right) && t.Right[i] {
			sep = "---:|"
		}
		d.WriteString(sep)
	}
	for _, r := range t.Rows {
		row(r)
	}
	d.WriteByte('\n')
}

func sentence(s string) string { return mdEscape(upperFirst(s)) + "." }

func (d *doc) header(m *analysis.Report) {
	r := m.Run
	d.say("run "+r.Name, "# kaeload run "+mdEscape(r.Name)+"\n")
	for _, f := range tables.Facts(m) { // a text run without variants: its times, then says so
		if d.md || len(r.Variants) > 0 || f.Label == "started" || f.Label == "finished" {
			d.say(fmt.Sprintf("%-9s %s", f.Label, f.Text), "- **"+f.Label+"** "+mdEscape(f.Text))
		}
	}
	if len(r.Variants) == 0 {
		d.say("no variants", "")
	}
	var quotes []string
	for _, n := range tables.Notices(m) {
		d.say(n.Label+": "+n.Text, "")
		quotes = append(quotes, "**"+n.Label+":** "+mdEscape(n.Text))
	}
	if d.md && len(quotes) > 0 {
		d.say("", "\n> "+strings.Join(quotes, "\n>\n> "))
	}
	for _, h := range r.Hosts {
		d.say("host      "+format.HostLine(h), "")
	}
}

// answers writes what the run found (the text report compares two windows or more).
func (d *doc) answers(m *analysis.Report) {
	r, s := m.Run, m.Summary
	compared := d.md || len(r.Variants) > 1 || len(r.Variants) == 1 && len(r.Variants[0].Reps) > 1
	switch {
	case d.md && len(r.Variants) == 0:
		d.para("", "No variant was measured.")
	case r.Capacity != nil:
		// Steps are windows at different rates: no repetition statistics.
		d.capacity(m)
		compared = d.md
	case compared:
		d.comparison(m)
	}
	if compared {
		d.rounds(s)
	}
	if ss := m.Search; ss != nil {
		d.search(ss)
	}
	if m.Speed != nil {
		d.speed(m.Speed, "")
	}
	if m.Profile != nil {
		d.profile(m.Profile)
	}
	if len(m.Thresholds) > 0 {
		d.heading(1, "thresholds", "Thresholds")
		d.table(tables.Thresholds(m.Thresholds))
	}
}

func (d *doc) capacity(m *analysis.Report) {
	r, intro := m.Run, tables.CapacityIntro(m.Run.Capacity)
	d.heading(1, m.CapacityLine.String(), "Capacity")
	d.para("", "**"+mdEscape(upperFirst(m.CapacityLine.String()))+"**")
	d.para(intro, sentence(intro))
	for i := range m.Capacities {
		c := &m.Capacities[i]
		name, knee := r.Variants[c.Variant].Name, notes.KneeWords(c, r.Capacity.From)
		d.heading(2, fmt.Sprintf("%s: capacity %s, %d steps", name, knee, len(c.Steps)), name+": "+knee)
		d.table(tables.Capacity(c))
	}
}

// comparison writes how it decides and the table; text then each variant's notes.
func (d *doc) comparison(m *analysis.Report) {
	s := m.Summary
	d.heading(1, fmt.Sprintf("comparison: total req/s per repetition, baseline %q", s.BaselineName), "Comparison")
	note := tables.StatsNote(s)
	md := "Total req/s per repetition against the baseline variant **" + mdEscape(s.BaselineName) + "**; " + mdEscape(note) + "."
	if nc := s.NoComparison(); !nc.IsZero() {
		note, md = nc.String(), "Total req/s per repetition; "+mdEscape(nc.String())+"."
	}
	d.para("", md)
	if d.md {
		d.table(tables.Comparison(m, measure.Markdown))
		return
	}
	d.aligned(tables.Table{Rows: [][]string{{note}}}, "", textWidth)
	d.table(tables.Comparison(m, measure.Text))
	if bt := tables.Below(m); len(bt.Rows) > 0 {
		d.WriteByte('\n')
		d.aligned(bt, "", textWidth)
	}
}

func (d *doc) rounds(s *analysis.RunSummary) {
	if dt, title, ok := tables.Drift(s); ok {
		d.heading(3, title, "Drift by round")
		d.para("", sentence(strings.TrimPrefix(title, "drift by round: ")))
		d.table(dt)
	}
	if pt, ok := tables.Probes(s); ok {
		d.heading(3, "probe deltas per window (mean over repetitions; per request = delta / requests in the window)", "Probe deltas")
		d.para("", "Per window, mean over repetitions; per request = delta / requests in the window.")
		d.table(pt)
	}
	for i := range s.Sweeps {
		sw := &s.Sweeps[i]
		title := tables.SweepTitle(sw)
		d.heading(1, title, upperFirst(title))
		d.para(tables.SweepLegend, upperFirst(tables.SweepLegend)+".") // its marks are the chart's
		d.para("", "```text")
		d.aligned(tables.Sweep(s, sw), "", 0)
		d.say("", "```")
		if l := tables.PlateauLine(s, sw); l != "" {
			d.para(l, sentence(l))
		}
	}
}

func (d *doc) search(ss *analysis.SearchSummary) {
	d.heading(1, "search "+ss.Search.Series, "Search "+ss.Search.Series)
	d.list(tables.SearchLines(ss))
	if len(ss.Points) > 0 {
		d.table(tables.Search(ss))
	}
}

// speed writes the crypto speed section, its text title after run.
func (d *doc) speed(t *analysis.SpeedTable, run string) {
	d.heading(1, fmt.Sprintf("%scrypto speed, baseline %q (run once per variant, server stopped)", run, t.BaselineName), "Crypto speed")
	base := "Δ % against the baseline **" + mdEscape(t.BaselineName) + "**"
	if t.Baseline < 0 {
		base = "the baseline **" + mdEscape(t.BaselineName) + "** was not measured: no Δ %"
		d.say("the baseline was not measured: no Δ %", "")
	}
	d.para("", "Run once per variant with the server stopped; "+base+".")
	var cmds []string
	for ci, c := range t.Commands {
		cmds = append(cmds, fmt.Sprintf("speed[%d]: %s", ci, c))
	}
	d.list(cmds)
	if len(t.Rows) > 0 {
		d.table(tables.Speed(t))
	}
	if d.md && len(t.Failures) > 0 {
		d.WriteByte('\n')
	}
	for _, f := range t.Failures {
		what := fmt.Sprintf("speed[%d] %s: %s", f.Command, format.Message(f.CommandLine), format.Message(f.Error))
		d.say("variant "+f.Variant+": "+what, "- **FAILED:** "+mdEscape("variant "+f.Variant+", "+what))
	}
}

func (d *doc) profile(t *analysis.ProfileTable) {
	d.heading(1, fmt.Sprintf("server profile (perf, %d Hz): where the server's CPU went", t.Rate), "Server profile")
	d.para("", fmt.Sprintf("Where the server's CPU went (perf, %d Hz), by library; the crypto share bounds what offload can give.", t.Rate))
	d.table(tables.Profile(t))
	d.list(tables.ProfileLines(t))
}

// mdEscape escapes what Markdown would read as markup.
var mdEscape = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`, "]", `\]`).Replace

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
