package htmlreport

import (
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// svgDoc writes the drawings gonum/plot cannot make small or with a
// tooltip per mark: the timelines (hundreds of bars a repetition) and the
// server profile (a tooltip per frame).
type svgDoc struct{ b strings.Builder }

// start writes "<name" and attrs, pairs of a name and a value: a string
// (escaped, left out when ""), a float64 (see num) or an int.
func (d *svgDoc) start(name string, attrs []any) {
	d.b.WriteString("<" + name)
	for i := 0; i+1 < len(attrs); i += 2 {
		var v string
		switch x := attrs[i+1].(type) {
		case string:
			v = html.EscapeString(x)
		case float64:
			v = num(x)
		case int:
			v = strconv.Itoa(x)
		}
		if v != "" {
			d.b.WriteString(" " + attrs[i].(string) + `="` + v + `"`)
		}
	}
}

// open starts an element that end closes.
func (d *svgDoc) open(name string, attrs ...any) { d.start(name, attrs); d.b.WriteString(">") }

func (d *svgDoc) end(name string) { d.b.WriteString("</" + name + ">") }

// el writes a whole element with its text and its tooltip, each "" for none.
func (d *svgDoc) el(name, text, title string, attrs ...any) {
	d.start(name, attrs)
	if text == "" && title == "" {
		d.b.WriteString("/>")
		return
	}
	d.b.WriteString(">" + html.EscapeString(text))
	if title != "" {
		d.b.WriteString("<title>" + html.EscapeString(title) + "</title>")
	}
	d.end(name)
}

// close ends the <svg> element and returns the drawing.
func (d *svgDoc) close() template.HTML {
	d.end("svg")
	return template.HTML(d.b.String()) // start and el escape every text
}

// openSVG starts a drawing of w×h user units named label, attrs last.
func (d *svgDoc) openSVG(class string, w, h float64, label string, attrs ...any) {
	d.open("svg", append([]any{"class", class, "xmlns", "http://www.w3.org/2000/svg", "viewBox", "0 0 " + num(w) + " " + num(h),
		"role", "img", "aria-label", label}, attrs...)...)
}

// num writes a coordinate to a tenth of a unit, without trailing zeros.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}
