package htmlreport

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/tables"
)

// profileSection is the server profile (analysis.ProfileTable): the line
// saying profiling was on, a stacked bar of each variant's CPU by
// library, the text report's table and lines, and a flame graph per
// variant, every one drawn here as inline SVG (no script, no network).
type profileSection struct {
	On     string
	Bars   template.HTML
	Table  table
	Lines  []string
	Flames []flameGraph
}

// flameGraph is one variant's flame graph, or why it has none.
type flameGraph struct {
	Variant string
	Reason  string
	SVG     template.HTML
}

// Layout of the profile's drawings, in SVG user units.
const (
	profileWidth = 720.0
	barHeight    = 22.0
	barLabel     = 150.0
	flameRow     = 16.0
	// flameMinWidth is the narrowest frame drawn: narrower ones are
	// left out (their samples still widen their parents).
	flameMinWidth = 0.5
	// barLibraries is how many libraries the bars colour one by one; the
	// rest are one "other" segment.
	barLibraries = 8
)

// profileSectionOf lays out t; nil for nil.
func profileSectionOf(t *analysis.ProfileTable) *profileSection {
	if t == nil {
		return nil
	}
	sec := &profileSection{On: t.OnLine(), Lines: tables.ProfileLines(t), Bars: profileBars(t)}
	tb := tables.Profile(t)
	sec.Table = cellTable("profile-table", tb.Header, tb.Rows, func(k int) bool { return k > 0 }, true)
	for i := range t.Variants {
		v := &t.Variants[i]
		fg := flameGraph{Variant: v.Name}
		if v.Available() {
			fg.SVG = flameSVG(v)
		} else {
			fg.Reason = v.NotAvailableLine()
		}
		sec.Flames = append(sec.Flames, fg)
	}
	return sec
}

// profileBars draws one horizontal bar per variant, its width the
// variant's samples split by library (the table's first libraries one
// colour each, the rest grey), with a legend; a variant without a
// profile gets its reason in place of a bar.
func profileBars(t *analysis.ProfileTable) template.HTML {
	named := t.Libraries[:min(len(t.Libraries), barLibraries)]
	colorOf := map[string]string{}
	for i, l := range named {
		colorOf[l] = cssColor(palette[i%len(palette)])
	}
	const other = "#cccccc"
	h := float64(len(t.Variants))*(barHeight+6) + 34
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="profile-bars" style="max-width: 100%%; height: auto; display: block; margin: .5em 0" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-label="server CPU by library">`, profileWidth, h, profileWidth, h)
	plot := profileWidth - barLabel - 10
	for i := range t.Variants {
		v := &t.Variants[i]
		y := float64(i) * (barHeight + 6)
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="11" text-anchor="end" font-family="sans-serif">%s</text>`, barLabel-6, y+barHeight/2+4, html.EscapeString(v.Name))
		if !v.Available() {
			fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="11" fill="#c00000" font-family="sans-serif">%s</text>`, barLabel, y+barHeight/2+4, html.EscapeString(v.NotAvailableLine()))
			continue
		}
		x := barLabel
		var rest float64
		for _, l := range v.Libraries {
			c, ok := colorOf[l.Name]
			if !ok {
				rest += l.Share
				continue
			}
			w := l.Share * plot
			fmt.Fprintf(&b, `<rect x="%.2f" y="%g" width="%.2f" height="%g" fill="%s"><title>%s: %s</title></rect>`, x, y, w, barHeight, c, html.EscapeString(l.Name), format.Percent(l.Share))
			if w > 34 {
				fmt.Fprintf(&b, `<text x="%.2f" y="%g" font-size="10" fill="#fff" text-anchor="middle" font-family="sans-serif">%s</text>`, x+w/2, y+barHeight/2+4, format.Percent(l.Share))
			}
			x += w
		}
		if rest > 0 {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%g" width="%.2f" height="%g" fill="%s"><title>other libraries: %s</title></rect>`, x, y, rest*plot, barHeight, other, format.Percent(rest))
		}
	}
	// The legend, in the table's order.
	x, y := barLabel, float64(len(t.Variants))*(barHeight+6)+14
	for _, l := range append(append([]string(nil), named...), "other") {
		c := colorOf[l]
		if c == "" {
			c = other
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="10" height="10" fill="%s"/><text x="%.1f" y="%g" font-size="10" font-family="sans-serif">%s</text>`, x, y-9, c, x+13, y, html.EscapeString(l))
		x += 20 + 6*float64(len(l))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// flameNode is one frame of a flame graph: its samples (its own and its
// callees') and its callees.
type flameNode struct {
	name     string
	lib      string
	samples  uint64
	children map[string]*flameNode
}

// flameSVG draws v's folded stacks as a flame graph: the roots at the
// bottom, each frame as wide as its share of the samples, its callees
// on top of it; a frame's title gives its name, library and share.
func flameSVG(v *analysis.ProfileVariant) template.HTML {
	root := &flameNode{name: "all", children: map[string]*flameNode{}}
	depth := 0
	for _, st := range v.Stacks {
		frames := st.Frames()
		if st.Stack == results.OtherStacks {
			frames = [][2]string{{"", results.OtherStacks}}
		}
		root.samples += st.Samples
		n := root
		for _, f := range frames {
			key := f[0] + "`" + f[1]
			c, ok := n.children[key]
			if !ok {
				c = &flameNode{name: f[1], lib: f[0], children: map[string]*flameNode{}}
				n.children[key] = c
			}
			c.samples += st.Samples
			n = c
		}
		depth = max(depth, len(frames))
	}
	if root.samples == 0 {
		return ""
	}
	h := float64(depth+1) * flameRow
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="flame" style="max-width: 100%%; height: auto; display: block; margin: .5em 0" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-label="flame graph of %s">`, profileWidth, h, profileWidth, h, html.EscapeString(v.Name))
	scale := profileWidth / float64(root.samples)
	var draw func(n *flameNode, x float64, level int)
	draw = func(n *flameNode, x float64, level int) {
		w := float64(n.samples) * scale
		if w < flameMinWidth {
			return
		}
		y := h - float64(level+1)*flameRow
		label := n.name
		if n.lib != "" && n.name == "[unknown]" {
			label = n.lib
		}
		share := format.Percent(float64(n.samples) / float64(root.samples))
		title := fmt.Sprintf("%s (%s): %s, %s samples", n.name, n.lib, share, format.Count(n.samples))
		if level == 0 {
			title = fmt.Sprintf("all: %s samples", format.Count(n.samples))
		}
		fmt.Fprintf(&b, `<g><title>%s</title><rect x="%.2f" y="%g" width="%.2f" height="%g" fill="%s" stroke="#fff" stroke-width="0.5"/>`, html.EscapeString(title), x, y, w, flameRow-1, flameColor(n.lib, level))
		if chars := int((w - 4) / 6); chars >= 3 {
			if r := []rune(label); len(r) > chars {
				label = string(r[:chars-1]) + "…"
			}
			fmt.Fprintf(&b, `<text x="%.2f" y="%g" font-size="10" font-family="monospace">%s</text>`, x+2, y+flameRow-5, html.EscapeString(label))
		}
		b.WriteString(`</g>`)
		keys := make([]string, 0, len(n.children))
		for k := range n.children {
			keys = append(keys, k)
		}
		sort.Strings(keys) // flame graphs order callees by name
		for _, k := range keys {
			c := n.children[k]
			draw(c, x, level+1)
			x += float64(c.samples) * scale
		}
	}
	draw(root, 0, 0)
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// flameColor colours a frame by where it runs: the kernel orange, crypto
// libraries red, the rest in warm yellows by library.
func flameColor(lib string, level int) string {
	switch {
	case level == 0:
		return "#dddddd"
	case lib == "[unknown]" || lib == "":
		return "#bbbbbb"
	case lib == "kernel" || strings.HasPrefix(lib, "["):
		return "#f4a261"
	case strings.HasPrefix(lib, "libcrypto") || strings.HasPrefix(lib, "libssl"):
		return "#e76f51"
	}
	var h uint32
	for _, c := range lib {
		h = h*31 + uint32(c)
	}
	return fmt.Sprintf("#%02x%02x%02x", 240, 180+h%60, 60+h%80)
}
