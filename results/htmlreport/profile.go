package htmlreport

import (
	"html/template"
	"image/color"
	"maps"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
)

// profileSection is the server profile: CPU by library, and a flame graph per variant.
type profileSection struct {
	*analysis.ProfileTable
	Bars   chart
	Table  *table
	Lines  []string
	Flames []chart
}

// Layout of the profile's drawings, in SVG user units. Frames narrower than flameMinWidth are left out
// (their samples still widen their parents); the bars colour barLibraries libraries, the rest "other".
const (
	profileWidth  = 720.0
	barHeight     = 22.0
	barLabel      = 150.0
	flameRow      = 16.0
	flameMinWidth = 0.5
	barLibraries  = 8
	profileStyle  = "max-width: 100%; height: auto; display: block; margin: .5em 0"
)

func profileSectionOf(t *analysis.ProfileTable) *profileSection {
	if t == nil {
		return nil
	}
	sec := &profileSection{ProfileTable: t, Bars: profileBars(t), Lines: tables.ProfileLines(t),
		Table: fromTable("profile-table", tables.Profile(t))}
	sec.Flames = measure.Map(t.Variants, func(v analysis.ProfileVariant) chart {
		fg := chart{Title: v.Name, Err: v.Missing.String()}
		if v.Available() {
			fg.SVG = flameSVG(&v)
		}
		return fg
	})
	return sec
}

// profileBars draws a bar per variant split by library, or why it has none.
func profileBars(t *analysis.ProfileTable) chart {
	var legend []legendItem
	colorOf := map[string]string{}
	for i, l := range t.Libraries[:min(len(t.Libraries), barLibraries)] {
		legend = append(legend, boxItem(l, palette[i%len(palette)]))
		colorOf[l] = legend[i].Color
	}
	const other = "#cccccc"
	legend = append(legend, legendItem{Name: "other", Color: other})
	var d svgDoc
	h := max(float64(len(t.Variants))*(barHeight+6)-6, barHeight)
	d.svg("profile-bars", profileWidth, h, "server CPU by library", "style", profileStyle, "width", profileWidth, "height", h)
	plot := profileWidth - barLabel - 10
	for i := range t.Variants {
		v := &t.Variants[i]
		top := float64(i) * (barHeight + 6)
		y := top + barHeight/2 + 4 // the labels' baseline
		d.el("text", v.Name, "", "x", barLabel-6, "y", y, "font-size", "11", "text-anchor", "end", "font-family", "sans-serif")
		if !v.Available() {
			d.el("text", v.Missing.String(), "", "x", barLabel, "y", y, "font-size", "11", "fill", "#c00000", "font-family", "sans-serif")
			continue
		}
		x, rest := barLabel, 0.0
		for _, l := range v.Libraries {
			c, ok := colorOf[l.Name]
			if !ok {
				rest += l.Share
				continue
			}
			w := l.Share * plot
			d.el("rect", "", l.Name+": "+format.Percent(l.Share), "x", x, "y", top, "width", w, "height", barHeight, "fill", c)
			if w > 34 {
				d.el("text", format.Percent(l.Share), "", "x", x+w/2, "y", y, "font-size", "10", "fill", "#fff", "text-anchor", "middle", "font-family", "sans-serif")
			}
			x += w
		}
		if rest > 0 {
			d.el("rect", "", "other libraries: "+format.Percent(rest), "x", x, "y", top, "width", rest*plot, "height", barHeight, "fill", other)
		}
	}
	return chart{SVG: d.drawing(), Legend: legend}
}

// flameNode is a frame of a flame graph, its samples its callees' too.
type flameNode struct {
	name, lib string
	samples   uint64
	children  map[string]*flameNode
}

// flameSVG draws v's folded stacks as a flame graph, the roots at the bottom.
func flameSVG(v *analysis.ProfileVariant) template.HTML {
	root := &flameNode{name: "all", children: map[string]*flameNode{}}
	depth := 0
	for _, st := range v.Stacks {
		frames := st.Frames()
		root.samples += st.Samples
		n := root
		for _, f := range frames {
			key := f[0] + "`" + f[1]
			if n.children[key] == nil {
				n.children[key] = &flameNode{name: f[1], lib: f[0], children: map[string]*flameNode{}}
			}
			n = n.children[key]
			n.samples += st.Samples
		}
		depth = max(depth, len(frames))
	}
	if root.samples == 0 {
		return ""
	}
	var d svgDoc
	h := float64(depth+1) * flameRow
	d.svg("flame", profileWidth, h, "flame graph of "+v.Name, "style", profileStyle, "width", profileWidth, "height", h)
	d.flame(root, root.samples, 0, h, 0)
	return d.drawing()
}

// flame draws frame n at x, level rows above the bottom h, then its callees in name order.
func (d *svgDoc) flame(n *flameNode, total uint64, x, h float64, level int) {
	scale := profileWidth / float64(total)
	w := float64(n.samples) * scale
	if w < flameMinWidth {
		return
	}
	y := h - float64(level+1)*flameRow
	samples := format.Count(n.samples) + " samples"
	title := "all: " + samples
	if level > 0 {
		title = n.name + " (" + n.lib + "): " + format.Percent(float64(n.samples)/float64(total)) + ", " + samples
	}
	d.WriteString("<g>")
	d.el("title", title, "")
	d.el("rect", "", "", "x", x, "y", y, "width", w, "height", flameRow-1, "fill", flameColor(n.lib, level), "stroke", "#fff", "stroke-width", "0.5")
	label := n.name
	if n.lib != "" && n.name == "[unknown]" {
		label = n.lib
	}
	if chars := int((w - 4) / 6); chars >= 3 {
		if r := []rune(label); len(r) > chars {
			label = string(r[:chars-1]) + "…"
		}
		d.el("text", label, "", "x", x+2, "y", y+flameRow-5, "font-size", "10", "font-family", "monospace")
	}
	d.WriteString("</g>")
	for _, k := range slices.Sorted(maps.Keys(n.children)) { // flame graphs order callees by name
		c := n.children[k]
		d.flame(c, total, x, h, level+1)
		x += float64(c.samples) * scale
	}
}

// flameColor colours a frame by where it runs: kernel orange, crypto red, the rest yellows by library.
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
	return cssColor(color.RGBA{240, uint8(180 + h%60), uint8(60 + h%80), 255})
}
