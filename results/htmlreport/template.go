package htmlreport

import "html/template"

// pageTemplate is the whole report page. Everything it needs is inline: the
// CSS below and the SVG of the charts. It uses no script and no URL. It is
// written in XHTML syntax (void elements self-closed), so the whole page is
// also well-formed XML, which the tests check with a strict XML parser.
var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<meta name="generator" content="kaeload"/>
<title>kaeload report: {{.Name}}</title>
<style>
:root { color-scheme: light; }
body { font-family: "Liberation Sans", Arimo, Arial, Helvetica, sans-serif; color: #222; background: #fff;
       margin: 0 auto; padding: 1.5em 2em 3em; max-width: 1180px; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0 0 .4em; }
h2 { font-size: 1.25em; margin: 2em 0 .6em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 .3em; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: .15em 1.2em; margin: 0 0 1em; }
dl.meta dt { color: #666; }
dl.meta dd { margin: 0; }
.banner { padding: .8em 1em; margin: .8em 0; border-radius: 4px; font-weight: bold; }
.banner ul { margin: .4em 0 0; font-weight: normal; }
.banner.alarm { background: #c00; color: #fff; font-size: 1.15em; }
.failed { color: #c00; font-weight: bold; }
.banner.interrupted { background: #fff3cd; border: 2px solid #d39e00; color: #5c4400; }
.banner.warnings { background: #fff8e6; border: 1px solid #e0b44c; color: #5c4400; }
/* A table wider than the column scrolls inside its own box; the page never does. */
.table-wrap { overflow-x: auto; margin: .4em 0 1em; }
table { border-collapse: collapse; font-size: .88em; }
th, td { padding: .2em .4em; border-bottom: 1px solid #e3e3e3; text-align: left; vertical-align: top; }
th { background: #f4f4f4; font-weight: 600; vertical-align: bottom; }
thead tr + tr th { border-top: 1px solid #e3e3e3; }
th.group { text-align: center; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num, td.name { white-space: nowrap; }
td.num.ci { white-space: normal; min-width: 6em; }
td.name .failed { display: block; }
td.verdict { min-width: 13em; }
#comparison-table { font-size: .82em; }
td.msg { font-family: "Liberation Mono", Consolas, monospace; font-size: .9em; word-break: break-all; max-width: 40em; }
tr.base td { background: #f7f7f7; }
tr.hot td { background: #fde0e0; }
tr.flagged td { background: #fff3cd; }
.sig-yes { color: #0a6b1f; font-weight: bold; }
.sig-no { color: #666; }
.swatch { display: inline-block; width: .9em; height: .9em; vertical-align: -.1em; margin-right: .35em; border-radius: 2px; }
.swatch.line { height: 0; border-top: 3px solid; border-radius: 0; vertical-align: .25em; width: 1.4em; }
.swatch.dashed { border-top-style: dashed; }
figure { margin: 1.2em 0 2em; }
figure svg { display: block; width: 100%; height: auto; }
figcaption .title { font-weight: bold; font-size: 1.05em; display: block; }
p.caption { font-size: .9em; color: #444; margin: .3em 0 0; }
ul.legend { list-style: none; padding: 0; margin: .3em 0; display: flex; flex-wrap: wrap; gap: .3em 1.4em; font-size: .92em; }
.chart-error { border: 2px dashed #c00; color: #900; padding: 1em; }
.note { color: #666; font-size: .9em; }
pre { background: #f6f6f6; padding: .8em; overflow: auto; font-size: .85em; max-height: 40em; }
footer { margin-top: 3em; color: #888; font-size: .85em; }
{{template "timeline-css"}}</style>
</head>
<body>
<h1>kaeload report: {{.Name}}</h1>
<dl class="meta">
<dt>scenario</dt><dd id="scenario">{{.Name}}</dd>
{{- if .Started}}
<dt>started</dt><dd>{{.Started}}</dd>{{end}}
{{- if .Finished}}
<dt>finished</dt><dd>{{.Finished}}{{if .Took}} (took {{.Took}}){{end}}</dd>{{end}}
{{- if .Baseline}}
<dt>baseline</dt><dd>{{.Baseline}}</dd>{{end}}
{{- if .Metrics}}
<dt>metrics</dt><dd id="metrics">{{.Metrics}}</dd>{{end}}
<dt>completed</dt><dd id="completed">{{if .Interrupted}}no: interrupted{{else if .Incomplete}}no: still running or its controller died{{else if .NotMeasured}}yes, but not every variant was measured{{else}}yes{{end}}</dd>
</dl>
{{- if .Failed}}
<div class="banner alarm" id="failed">FAILED: {{range $i, $v := .Failed}}{{if $i}}, {{end}}{{$v}}{{end}}: no request succeeded in a window, or errors were above the run's limit.
These figures are not results: see the repetitions and errors tables.</div>
{{- end}}
{{- if .NotMeasured}}
<div class="banner alarm" id="not-measured">NOT MEASURED: the run gave up on {{if eq (len .NotMeasured) 1}}a variant{{else}}{{len .NotMeasured}} variants{{end}} and went on with the others.
<ul>{{range .NotMeasured}}<li>{{.}}</li>{{end}}</ul></div>
{{- end}}
{{- if .Partial}}
<div class="banner interrupted" id="partial">PARTIAL: {{if eq (len .Partial) 1}}a window was{{else}}{{len .Partial}} windows were{{end}} cut short by an interrupt or a lost worker. What {{if eq (len .Partial) 1}}it{{else}}they{{end}} measured is kept here, and is in no figure or test below.
<ul>{{range .Partial}}<li>{{.}}</li>{{end}}</ul></div>
{{- end}}
{{- if .Excluded}}
<div class="banner warnings" id="excluded">EXCLUDED: {{len .Excluded}} window{{if ne (len .Excluded) 1}}s{{end}} measured the client or shared CPUs, and the run's exclude_flagged policy set {{if eq (len .Excluded) 1}}it{{else}}them{{end}} aside and measured again; they are in no figure or test below.
<ul>{{range .Excluded}}<li>{{.}}</li>{{end}}</ul></div>
{{- end}}
{{- if .Incomplete}}
<div class="banner interrupted" id="incomplete">INCOMPLETE: rebuilt from the run's journal; only the repetitions finished so far are shown.</div>
{{- end}}
{{- if .ClientBound}}
<div class="banner alarm" id="client-bound">CLIENT-BOUND: kaeload itself used {{.Threshold}} or more of a worker group's CPUs.
These figures measure kaeload, not the server: add client CPUs or groups and run again.
<ul>{{range .ClientBound}}<li>{{.}}</li>{{end}}
{{- if .ClientBoundMore}}<li>… and {{.ClientBoundMore}} more: see the worker groups and CPU tables</li>{{end}}</ul></div>
{{- end}}
{{- if .Interrupted}}
<div class="banner interrupted" id="interrupted">INTERRUPTED: the run was stopped early and is INCOMPLETE: only the completed repetitions are shown (kaeload run --resume DIR measures the rest).</div>
{{- end}}
{{- if .Thresholds}}
<div class="banner {{if .Crossed}}alarm{{else}}warnings{{end}}" id="thresholds">{{if .Crossed}}THRESHOLD CROSSED: {{.Crossed}} of {{len .Thresholds}} checks failed{{else}}Thresholds: every check passed{{end}}
<ul>{{range .Thresholds}}<li>{{.}}</li>{{end}}</ul></div>
{{- end}}
{{- with .Timeline}}{{template "diagnoses" .}}{{end}}
{{- if .Warnings}}
<div class="banner warnings" id="warnings">Warnings
<ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul></div>
{{- end}}
{{- range .Hints}}
<p class="note hint">Hint: {{.}}</p>
{{- end}}
{{- if .Hosts}}
<p class="note" id="hosts">Hosts over ssh:</p>
<ul>{{range .Hosts}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
{{- if .NoVariants}}
<p class="note">This run has no variants: nothing was measured.</p>
{{- else}}

<h2 id="comparison">Comparison</h2>
<p class="note">Samples: each repetition's total req/s (requests completed by all groups in the window ÷ window length).
{{.StatsNote}}.</p>
{{- if .Order}}
<p class="note" id="order">Order: {{.Order}}.</p>
{{- end}}
{{template "table" .Comparison}}
{{- with .Drift}}

<h3 id="drift">Drift by round</h3>
<p class="note">{{.Title}}.</p>
{{template "table" .Table}}
{{- end}}
{{- with .Search}}

<h3 id="search">Search</h3>
{{- range .Lines}}
<p class="note">{{.}}.</p>
{{- end}}
{{template "table" .Table}}
{{- end}}

{{- with .Capacity}}

<h2 id="capacity">Capacity</h2>
<p><strong>{{.Line}}</strong></p>
<p class="note">{{.Intro}}.</p>
{{- range .Tables}}
<h3>{{.Variant}}: {{.Knee}}</h3>
{{template "table" .Table}}
{{- end}}
{{- end}}

<h2 id="charts">Charts</h2>
{{- range .Charts}}
<figure id="{{.ID}}">
<figcaption><span class="title">{{.Title}}</span>
{{- if .Legend}}
<ul class="legend">{{range .Legend}}<li><span class="swatch{{if .Line}} line{{end}}{{if .Dashed}} dashed{{end}}" style="{{if .Line}}border-color{{else}}background{{end}}: {{.Color}}"></span>{{.Name}}</li>{{end}}</ul>
{{- end}}</figcaption>
{{- if .Err}}
<p class="chart-error">chart not drawn: {{.Err}}</p>
{{- else}}
{{.SVG}}
{{- end}}
<p class="caption">{{.Caption}}</p>
</figure>
{{- end}}
{{- with .Timeline}}{{template "timeline" .}}{{end}}
{{- with .Profile}}{{template "profile" .}}{{end}}
{{- with .Speed}}

<h2 id="speed">Crypto speed</h2>
<p class="note">Crypto micro-benchmarks, run once per variant with the server stopped; Δ % against the baseline {{.Baseline}}.</p>
<ul class="speed-commands">{{range .Commands}}<li>speed[{{.Index}}]: <code>{{.Line}}</code></li>{{end}}</ul>
{{- with .Table}}
{{template "table" .}}
{{- end}}
{{- with .Failures}}
{{template "table" .}}
{{- end}}
{{- end}}

<h2 id="variants">Variants</h2>
{{template "table" .Variants}}

<h2 id="repetitions">Repetitions</h2>
{{template "table" .Reps}}
{{- with .NotCounted}}

<h3 id="not-counted">Not counted</h3>
<p class="note">Requests outside the measured windows, in no figure above: with the windows' requests they account for every line of the server's access log.
Errors are counted by class as in the window (a 503 is "status").
In flight at the window's end: completed in the drain after it, or failed or cut off, by the stage each was in.
TIME_WAIT: sockets on the client machine right after the window (the server's too, when it runs there).</p>
{{template "table" .}}
{{- end}}

<h2 id="latency">Latency</h2>
<p class="note">Milliseconds, from the HDR histograms of every repetition merged exactly (not averaged percentiles).</p>
{{template "table" .Latency}}

{{- with .OpenLoop}}

<h3 id="open-loop">Open loop</h3>
<p class="note">Starts due in the windows, and those missed because every connection slot was busy when they came due (never run late); latency in milliseconds from each request's intended start, a missed start counted at the request timeout (histograms of the repetitions merged exactly).</p>
{{template "table" .}}
{{- end}}

<h2 id="groups">Worker groups</h2>
{{template "table" .Groups}}

<h2 id="cpu">CPU</h2>
{{- with .ServerCost}}
{{template "table" .}}
{{- end}}
{{- with .CPU}}
{{template "table" .}}
{{- else}}
<p class="note">CPU use was not measured in this run.</p>
{{- end}}

<h2 id="errors">Errors</h2>
{{- with .Errors}}
{{template "table" .}}
{{- else}}
<p class="note">No request failed inside the measured windows.</p>
{{- end}}

<h2 id="negotiated">Negotiated parameters</h2>
{{- with .Negotiated}}
{{template "table" .}}
{{- else}}
<p class="note">No negotiated parameters were recorded.</p>
{{- end}}
{{- with .Probes}}

<h2 id="probes">Server probes</h2>
{{template "table" .}}
{{- end}}
{{- end}}
{{- if .Plan}}

<h2 id="plan">Plan</h2>
<details><summary>The compiled plan this run executed</summary>
<pre>{{.Plan}}</pre>
</details>
{{- end}}
<footer>Written by kaeload. This page is self-contained: no scripts, fonts, images or styles are loaded from anywhere.</footer>
</body>
</html>
`))
