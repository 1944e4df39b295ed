package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
)

// variant writes a variant's environment, server and repetitions (text only).
func (d *doc) variant(m *analysis.Report, vi int) {
	v := &m.Run.Variants[vi]
	d.heading(1, "variant "+v.Name, "")
	if len(v.Env) > 0 {
		d.say("env "+tables.KeyValues(v.Env), "")
	}
	for _, in := range v.Info {
		d.say("server "+in.Line(), "")
	}
	if len(v.Reps) == 0 && len(v.Partial) > 0 {
		d.say("no completed repetitions (a partial window: see PARTIAL above)", "")
	} else if len(v.Reps) == 0 {
		d.say("no completed repetitions", "")
	}
	for i := range v.Reps {
		d.rep(measure.NewRep(m, vi, i))
	}
}

func (d *doc) rep(x *measure.Rep) {
	rep, ra := x.Rep, x.A
	if st := rep.Step; st != nil {
		d.heading(2, fmt.Sprintf("%s, capacity step %d (%s, %s/s asked)", x.V.Name, rep.Index+1, st.Phase, format.Count(uint64(st.Rate+0.5))), "")
	} else {
		d.heading(2, fmt.Sprintf("%s, repetition %d", x.V.Name, rep.Index+1), "")
	}
	d.list(append(measure.RepFlags(ra), ra.Missed, ra.Backoff).Strings())
	facts := measure.Map(measure.FactRows(x), func(r [2]string) tables.Notice { return tables.Notice{Label: r[0], Text: r[1]} })
	d.facts(append(facts, tables.RepTimeline(&ra.Timeline)...), "")
	if n := rep.Total.Negotiated; len(n) > 0 {
		d.say("negotiated", "")
		nt := tables.Table{Right: []bool{false, true}}
		for _, k := range tables.ByCount(n) {
			nt.Add(k, format.Count(n[k]))
		}
		d.aligned(nt, "  ", 0)
	}
	for i := range ra.Timeline.Diagnoses {
		dg := &ra.Timeline.Diagnoses[i]
		d.say("DIAGNOSIS "+dg.Title, "")
		d.facts(tables.DiagnosisRows(dg), "  ")
	}
	d.WriteByte('\n')
	d.table(tables.Latencies(x))
	d.WriteByte('\n')
	d.table(tables.Groups(x))
	d.hostGroups(rep.Groups)
	if s := ra.Spread; s != nil {
		fmt.Fprintf(d, "spread between groups: min %s req/s (group %d), max %s req/s (group %d): %.1f %% of the mean\n",
			format.Rate(s.Min), s.MinIndex, format.Rate(s.Max), s.MaxIndex, s.Pct)
	}
}

// hostGroups sums a repetition's groups per host; nothing when all ran here.
func (d *doc) hostGroups(groups []results.Group) {
	if !slices.ContainsFunc(groups, func(g results.Group) bool { return g.Host != "" }) {
		return
	}
	host := func(g results.Group) string { return cmp.Or(g.Host, "local") }
	for i, g := range groups {
		name := host(g)
		if slices.ContainsFunc(groups[:i], func(o results.Group) bool { return host(o) == name }) {
			continue // written with its host's first group
		}
		gs := slices.DeleteFunc(slices.Clone(groups), func(o results.Group) bool { return host(o) != name })
		var ids, cpus []string
		var seconds, busiest float64
		measured := false
		for _, g := range gs {
			ids, cpus = append(ids, fmt.Sprint(g.Index)), append(cpus, cmp.Or(g.CPUs, "unpinned"))
			if g.CPU != nil {
				measured, seconds, busiest = true, seconds+g.CPU.Seconds, max(busiest, g.CPU.Busy)
			}
		}
		fmt.Fprintf(d, "host %s: %s %s on CPUs %s", name, format.Plural(len(gs), "group"), strings.Join(ids, ", "),
			strings.Join(cpus, " "))
		if measured {
			fmt.Fprintf(d, ", client CPU %.2f s (busiest group %s)", seconds, format.Percent(busiest))
		}
		if name != "local" {
			fmt.Fprintf(d, ", clock offset %s", gs[len(gs)-1].ClockOffset.Round(time.Microsecond))
		}
		d.WriteByte('\n')
	}
}

const textWidth = 120

// aligned writes t as text, columns two spaces apart, each line after indent;
// with a width, the last cell wraps at spaces to fit it, on rows of its own.
func (d *doc) aligned(t tables.Table, indent string, width int) {
	rows := t.Rows
	if t.Header != nil {
		rows = append([][]string{t.Header}, rows...)
	}
	widths := map[int]int{}
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		for _, row := range wrapLast(row, widths, width) {
			cells := make([]string, len(row))
			for i, c := range row {
				pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
				cells[i] = c + pad
				if i < len(t.Right) && t.Right[i] {
					cells[i] = pad + c
				}
			}
			d.WriteString(strings.TrimRight(indent+strings.Join(cells, "  "), " ") + "\n")
		}
	}
}

// wrapLast is row with its last cell (left-aligned) split into lines that fit width.
func wrapLast(row []string, widths map[int]int, width int) [][]string {
	if width == 0 {
		return [][]string{row}
	}
	n, lead := len(row)-1, 0
	for i := range n {
		lead += widths[i] + 2
	}
	var rows [][]string
	line := ""
	for _, w := range strings.Fields(row[n]) {
		if line != "" && lead+utf8.RuneCountInString(line+" "+w) > width {
			rows, row, line = append(rows, append(row[:n:n], line)), make([]string, n+1), ""
		}
		line = strings.TrimPrefix(line+" "+w, " ")
	}
	return append(rows, append(row[:n:n], line))
}
