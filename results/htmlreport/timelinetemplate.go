package htmlreport

import "html/template"

// The timeline section and its CSS are templates of their own, associated
// with pageTemplate, which calls them: "timeline-css" inside its <style>,
// "timeline" after the charts.
func init() {
	template.Must(pageTemplate.New("timeline-css").Parse(timelineCSS))
	template.Must(pageTemplate.New("timeline").Parse(timelineTemplate))
	template.Must(pageTemplate.New("diagnoses").Parse(diagnosesTemplate))
}

// diagnosesTemplate renders the banner of a *timelineSection's diagnoses
// (nothing without any).
const diagnosesTemplate = `
{{- if .Diagnoses}}
<div class="banner warnings" id="diagnoses">DIAGNOSED: what went wrong inside the windows (each repetition's timeline gives the figure, the consequence and the fix)
<ul>{{range .Diagnoses}}<li>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>{{end}}
{{- if .DiagnosesMore}}<li>… and {{.DiagnosesMore}} more: see the <a href="#timeline">timeline</a></li>{{end}}</ul></div>
{{- end}}`

const timelineCSS = `details.tl-rep { margin: .3em 0 .8em; }
details.tl-rep > summary { cursor: pointer; font-weight: 600; }
details.tl-rep > summary .note { font-weight: normal; }
.tl-chart { margin: .4em 0 .9em; }
.tl-chart svg { display: block; width: 100%; height: auto; }
.tl-chart .title { font-weight: 600; }
.tl-chart ul.legend { margin: .1em 0 .2em; }
dl.tl-facts { display: grid; grid-template-columns: max-content auto; gap: .1em 1em; margin: .4em 0; font-size: .92em; }
dl.tl-facts dt { color: #666; }
dl.tl-facts dd { margin: 0; }
.diagnosis { border-left: 4px solid #c00; background: #fff5f5; padding: .3em .8em; margin: .5em 0; }
.diagnosis .title { font-weight: 600; }
`

// timelineTemplate renders a *timelineSection.
const timelineTemplate = `

<h2 id="timeline">Timeline</h2>
{{- if not .Recorded}}
<p class="note" id="no-timeline">No timeline recorded in this run: nothing to draw over time (runs stored before kaeload divided each window into intervals have none).</p>
{{- else}}
<p class="note">Each repetition from the start of its warm-up (negative times, faded: not counted) to the end of its window, interval by interval, on one time axis per repetition.
Click a repetition to open or close its charts.</p>
{{- range .Variants}}
<h3 id="{{.ID}}"><span class="swatch" style="background: {{.Color}}"></span>{{.Name}}</h3>
{{- range .Reps}}
{{- if .None}}
<p class="note tl-none" id="{{.ID}}">repetition {{.Rep}}: {{.Summary}}</p>
{{- else}}
<details class="tl-rep" id="{{.ID}}"{{if .Open}} open="open"{{end}}>
<summary>repetition {{.Rep}} <span class="note">{{.Summary}}</span></summary>
{{- if .Facts}}
<dl class="tl-facts">{{range .Facts}}<dt>{{.Label}}</dt><dd>{{.Text}}</dd>{{end}}</dl>
{{- end}}
{{- range .Diagnoses}}
<div class="diagnosis"><span class="title">DIAGNOSIS: {{.Title}}</span>
<dl class="tl-facts">{{range .Rows}}<dt>{{.Label}}</dt><dd>{{.Text}}</dd>{{end}}</dl></div>
{{- end}}
{{- range .Charts}}
<div class="tl-chart {{.Class}}">
<span class="title">{{.Title}}</span>
{{- if .Legend}}
<ul class="legend">{{range .Legend}}<li><span class="swatch{{if .Line}} line{{end}}{{if .Dashed}} dashed{{end}}" style="{{if .Line}}border-color{{else}}background{{end}}: {{.Color}}"></span>{{.Name}}</li>{{end}}</ul>
{{- end}}
{{.SVG}}
{{- if .Note}}
<p class="caption">{{.Note}}</p>
{{- end}}
</div>
{{- end}}
</details>
{{- end}}
{{- end}}
{{- end}}
{{- if .Without}}
<p class="note" id="timeline-without">No timeline recorded for {{range $i, $v := .Without}}{{if $i}}, {{end}}{{$v}}{{end}}.</p>
{{- end}}
{{- end}}`
