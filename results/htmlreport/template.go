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
<div class="table-wrap"><table id="comparison-table">
<thead><tr><th>variant</th><th class="num">n</th><th class="num">mean req/s</th><th class="num">client<br/>µs/req</th><th class="num">± stddev</th><th class="num">95 % CI</th>
<th class="num">Δ vs<br/>baseline</th><th class="num">p</th><th class="num">p Holm</th><th class="num">MDE</th><th>verdict</th><th class="num">p99<br/>handshake ms</th>
<th class="num">errors</th><th class="num">req/server<br/>cpu-s</th>{{range .VariantMeasures}}<th class="num">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Comparison}}
<tr{{if .IsBase}} class="base"{{end}}><td class="name"><span class="swatch" style="background: {{.Color}}"></span>{{.Variant}}{{if .Failed}} <span class="failed">{{.Failed}}</span>{{end}}</td><td class="num">{{.N}}</td>
<td class="num">{{.Mean}}</td><td class="num">{{.ClientUs}}</td><td class="num">{{.StdDev}}</td><td class="num ci">{{.CI}}</td><td class="num">{{.Delta}}</td>
<td class="num">{{.P}}</td><td class="num">{{.PAdj}}</td><td class="num">{{.MDE}}</td><td class="verdict {{if .Significant}}sig-yes{{else}}sig-no{{end}}">{{.Verdict}}</td><td class="num">{{.P99Handshake}}</td>
<td class="num">{{.Errors}}</td><td class="num">{{.PerServerCPU}}</td>{{range .Measures}}<td class="num">{{.}}</td>{{end}}</tr>
{{- if .Notes}}
<tr class="notes{{if .IsBase}} base{{end}}"><td></td><td colspan="{{$.ColsV}}" class="msg">notes: {{.Notes}}</td></tr>
{{- end}}
{{- end}}
</tbody>
</table></div>
{{- with .Drift}}

<h3 id="drift">Drift by round</h3>
<p class="note">{{.Title}}.</p>
<div class="table-wrap"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td class="num">{{.}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
{{- end}}
{{- with .Search}}

<h3 id="search">Search</h3>
{{- range .Lines}}
<p class="note">{{.}}.</p>
{{- end}}
<div class="table-wrap"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
{{- end}}

{{- with .Capacity}}

<h2 id="capacity">Capacity</h2>
<p><strong>{{.Line}}</strong></p>
<p class="note">{{.Intro}}.</p>
{{- range .Tables}}
<h3>{{.Variant}}: {{.Knee}}</h3>
<div class="table-wrap"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>
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
{{- if .Rows}}
<div class="table-wrap"><table id="speed-table">
{{template "cells" .}}
</table></div>
{{- end}}
{{- if .Failures}}
<div class="table-wrap"><table id="speed-failures">
<thead><tr><th>variant</th><th>speed command</th><th>error</th></tr></thead>
<tbody>
{{- range .Failures}}
<tr><td>{{.Variant}}</td><td class="msg">speed[{{.Command}}] {{.Line}}</td><td class="msg">{{.Error}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- end}}
{{- end}}

<h2 id="variants">Variants</h2>
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th>series</th><th>swept</th><th>server environment</th><th class="num">repetitions</th></tr></thead>
<tbody>
{{- range .Variants}}
<tr><td class="name"><span class="swatch" style="background: {{.Color}}"></span>{{.Variant}}</td><td>{{.Series}}</td><td>{{.Sweep}}</td><td class="msg">{{.Env}}</td><td class="num">{{.Reps}}</td></tr>
{{- range .Info}}
<tr><td></td><td colspan="4" class="msg">server {{.}}</td></tr>
{{- end}}
{{- end}}
</tbody>
</table></div>

<h2 id="repetitions">Repetitions</h2>
<div class="table-wrap"><table id="reps-table">
<thead><tr><th>variant</th><th class="num">rep</th><th class="num">window</th><th class="num">requests</th><th class="num">req/s</th><th class="num">client µs/req</th><th class="num">errors</th>
<th class="num">handshakes</th><th class="num">resumed</th><th class="num">connections</th><th>status</th><th class="num">p99 total ms</th>{{range .RepMeasures}}<th class="num">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Reps}}
<tr{{if .Failed}} class="hot"{{else if .Flagged}} class="flagged"{{end}}><td class="name">{{.Variant}}</td><td class="num">{{.Rep}}</td><td class="num">{{.Window}}</td><td class="num">{{.Requests}}</td><td class="num">{{.Rate}}</td><td class="num">{{.ClientUs}}</td>
<td class="num">{{.Errors}}</td><td class="num">{{.Handshakes}}</td><td class="num">{{.Resumed}}</td><td class="num">{{.Connections}}</td>
<td>{{.Status}}</td><td class="num">{{.P99Total}}</td>{{range .Measures}}<td class="num">{{.}}</td>{{end}}</tr>
{{- if .Failed}}
<tr class="hot"><td colspan="{{$.ColsR}}"><span class="failed">FAILED:</span> {{.Failed}}</td></tr>
{{- end}}
{{- range .Notes}}
<tr><td colspan="{{$.ColsR}}" class="msg">{{.}}</td></tr>
{{- end}}
{{- else}}
<tr><td colspan="{{$.ColsR}}">no completed repetitions</td></tr>
{{- end}}
</tbody>
</table></div>
{{- if .NotCounted}}

<h3 id="not-counted">Not counted</h3>
<p class="note">Requests outside the measured windows, in no figure above: with the windows' requests they account for every line of the server's access log.
Errors are counted by class as in the window (a 503 is "status").
In flight at the window's end: completed in the drain after it, or failed or cut off, by the stage each was in.
TIME_WAIT: sockets on the client machine right after the window (the server's too, when it runs there).</p>
<div class="table-wrap"><table id="not-counted-table">
<thead><tr><th rowspan="2">variant</th><th class="num" rowspan="2">rep</th><th class="group" colspan="2">warm-up</th><th class="group" colspan="6">in flight at the window's end</th>
<th class="num" rowspan="2">TIME_WAIT sockets after</th></tr>
<tr><th class="num">responses</th><th class="num">errors</th><th class="num">completed after</th><th class="num">errors after</th><th class="num">failed or cut off</th>
<th class="num">in connect</th><th class="num">in handshake</th><th class="num">awaiting response</th></tr></thead>
<tbody>
{{- range .NotCounted}}
<tr><td class="name">{{.Variant}}</td><td class="num">{{.Rep}}</td><td class="num">{{.Warmup}}</td><td class="num">{{.WarmupErrors}}</td><td class="num">{{.Late}}</td><td class="num">{{.AfterErrors}}</td><td class="num">{{.Abandoned}}</td>
<td class="num">{{.Connect}}</td><td class="num">{{.Handshake}}</td><td class="num">{{.Response}}</td><td class="num">{{.TimeWait}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- end}}

<h2 id="latency">Latency</h2>
<p class="note">Milliseconds, from the HDR histograms of every repetition merged exactly (not averaged percentiles).</p>
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th>timing</th><th class="num">count</th><th class="num">p50</th><th class="num">p90</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th></tr></thead>
<tbody>
{{- range .Latency}}
<tr><td>{{.Variant}}</td><td>{{.Metric}}</td><td class="num">{{.Count}}</td><td class="num">{{.P50}}</td><td class="num">{{.P90}}</td>
<td class="num">{{.P99}}</td><td class="num">{{.P999}}</td><td class="num">{{.Max}}</td></tr>
{{- end}}
</tbody>
</table></div>

{{- if .OpenLoop}}

<h3 id="open-loop">Open loop</h3>
<p class="note">Starts due in the windows, and those missed because every connection slot was busy when they came due (never run late); latency in milliseconds from each request's intended start, a missed start counted at the request timeout (histograms of the repetitions merged exactly).</p>
<div class="table-wrap"><table id="open-loop-table">
<thead><tr><th>variant</th><th class="num">starts due</th><th class="num">missed</th><th class="num">p50 from intended</th><th class="num">p99 from intended</th><th class="num">p99.9 from intended</th></tr></thead>
<tbody>
{{- range .OpenLoop}}
<tr><td class="name">{{.Variant}}</td><td class="num">{{.Scheduled}}</td><td class="num">{{.Missed}}</td><td class="num">{{.P50}}</td><td class="num">{{.P99}}</td><td class="num">{{.P999}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- end}}

<h2 id="groups">Worker groups</h2>
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th class="num">group</th><th>CPUs</th><th class="num">threads</th><th class="num">connections</th>
<th class="num">mean req/s</th><th class="num">range over reps</th><th class="num">CPU busy: mean (max)</th></tr></thead>
<tbody>
{{- range .Groups}}
<tr{{if .Hot}} class="hot"{{end}}><td>{{.Variant}}</td><td class="num">{{.Group}}</td><td>{{.CPUs}}</td><td class="num">{{.Threads}}</td>
<td class="num">{{.Slots}}</td><td class="num">{{.Rate}}</td><td class="num">{{.RateRange}}</td><td class="num">{{.Busy}}</td></tr>
{{- end}}
</tbody>
</table></div>

<h2 id="cpu">CPU</h2>
{{- if .ServerCost}}
<div class="table-wrap"><table id="server-cost">
<thead><tr><th>variant</th><th class="num">reps with server CPU</th><th class="num">server CPU time</th><th class="num">req/server cpu-s</th><th>95 % CI (per repetition)</th><th>Δ req/server cpu-s</th></tr></thead>
<tbody>
{{- range .ServerCost}}
<tr><td>{{.Variant}}</td><td class="num">{{.Reps}}</td><td class="num">{{.Seconds}}</td><td class="num">{{.PerSecond}}</td><td>{{.CI}}</td><td>{{.Delta}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- end}}
{{- if .CPU}}
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th class="num">rep</th><th class="num">client busiest group</th><th class="num">group</th>
<th class="num">client mean</th><th class="num">server busy</th><th class="num">server CPU time</th></tr></thead>
<tbody>
{{- range .CPU}}
<tr{{if .Hot}} class="hot"{{end}}><td>{{.Variant}}</td><td class="num">{{.Rep}}</td><td class="num">{{.ClientMax}}</td><td class="num">{{.Busiest}}</td>
<td class="num">{{.ClientMean}}</td><td class="num">{{.Server}}</td><td class="num">{{.ServerSeconds}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- else}}
<p class="note">CPU use was not measured in this run.</p>
{{- end}}

<h2 id="errors">Errors</h2>
{{- if .Errors}}
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th class="num">rep</th><th>class</th><th class="num">count</th><th>first message</th></tr></thead>
<tbody>
{{- range .Errors}}
<tr><td>{{.Variant}}</td><td class="num">{{.Rep}}</td><td>{{.Class}}</td><td class="num">{{.Count}}</td><td class="msg">{{.First}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- else}}
<p class="note">No request failed inside the measured windows.</p>
{{- end}}

<h2 id="negotiated">Negotiated parameters</h2>
{{- if .Negotiated}}
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th>version, cipher, group</th><th class="num">handshakes</th><th class="num">share</th></tr></thead>
<tbody>
{{- range .Negotiated}}
<tr><td>{{.Variant}}</td><td>{{.Params}}</td><td class="num">{{.Count}}</td><td class="num">{{.Share}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{- else}}
<p class="note">No negotiated parameters were recorded.</p>
{{- end}}
{{- if .Probes}}

<h2 id="probes">Server probes</h2>
<div class="table-wrap"><table>
<thead><tr><th>variant</th><th class="num">rep</th><th>probe</th><th class="num">before</th><th class="num">after</th><th class="num">delta</th><th>error</th></tr></thead>
<tbody>
{{- range .Probes}}
<tr><td>{{.Variant}}</td><td class="num">{{.Rep}}</td><td>{{.Probe}}</td><td class="num">{{.Before}}</td><td class="num">{{.After}}</td><td class="num">{{.Delta}}</td><td class="msg">{{.Error}}</td></tr>
{{- end}}
</tbody>
</table></div>
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
