// Package htmlreport renders a results.Run as report.html: one
// self-contained page with the comparison, charts and detail tables of a
// kaeload run.
//
// # Self-contained
//
// Performance labs are often offline, and a report gets mailed around. The
// page therefore loads nothing: the CSS is inline, the charts are inline
// SVG elements, there is no JavaScript, no web font and no image file. The
// only URLs in the output are the SVG namespace names
// (http://www.w3.org/2000/svg, …), which a browser never fetches. Chart
// text names the Liberation Sans family with metric-compatible fallbacks
// (Arimo, Arial) instead of embedding the font, which keeps each chart a
// few tens of KB.
//
// # Charts
//
// Charts are drawn with gonum.org/v1/plot and its SVG canvas (vgsvg):
//
//   - req/s per variant: mean bar, 95 % confidence-interval whisker,
//     one dot per repetition, the baseline's mean as a dashed line;
//   - one sweep chart per sweep of the analysis (RunSummary.Sweeps, in
//     its order and with its labels), with whiskers, the best point
//     (SweepSummary.Best) ringed when there is one and the sweep's
//     verdict in words: a line of mean req/s against the swept value
//     when the sweep is numeric (SweepSummary.Numeric); otherwise
//     (certificate names, engines, several keys at once) a bar per value
//     in run order, from zero, since a line between names would suggest
//     values between them;
//   - CDFs of the TLS handshake and total request time per variant on a
//     log ms axis, from the repetitions' HDR histograms merged exactly;
//   - req/s per worker group, mean over repetitions, grouped by group;
//   - client and server CPU busy %, when measured, against the
//     client-bound threshold (results.ClientBoundBusy).
//
// Variants keep one colour across every chart and table. Legends are HTML
// under each chart so they never hide data.
//
// # Timeline
//
// After the charts, each variant's repetitions over time, one <details>
// block per repetition (the variant's first open). A block gives what
// the analysis says of the repetition's timeline (analysis.RepReport:
// rate range by interval, stalls, each host's TCP counters, its
// diagnoses with cause, figure, consequence and fix; the run's diagnoses
// are also a banner at the top), then three charts on one time axis from
// the warm-up's start (negative times, shaded and faded: not counted) to
// the window's end:
//
//   - successful responses per second per interval, stacked by worker
//     group (Rep.GroupTimeline), a tooltip per interval with its figures,
//     the analysis's stalls outlined;
//   - the TLS handshake's p50 and p99 per interval, ms on a log scale,
//     broken where nothing was timed;
//   - the worker processes' CPU, their groups' CPUs busy and the
//     server's, against the client-bound threshold.
//
// The kernel events the analysis lists (analysis.RepReport.Events: a TCP
// trouble counter that grew on a host in an interval) are a ▲ under the
// rate chart's time axis, its SVG <title> naming each counter, host and
// count, and a red band across the three charts. These charts are drawn
// as SVG by hand rather than with gonum/plot: one <path> per group (a
// subpath per bar) and one <polyline> per line keep a repetition of 11
// groups × 35 intervals near 27 KB (TestTimelineSize). A run without
// timelines says "no timeline recorded".
//
// # Layout
//
// The page is a column of at most 1180 px. Every table sits in a box that
// scrolls sideways when the table is wider than the column, so the page
// itself never does; cells are compact, figures and variant names do not
// wrap, and a table cell holds one figure rather than a sentence, so rows
// stay one or two lines high. At 1280 px the comparison, repetition and
// not-counted tables of nine variants × five repetitions fit without
// scrolling (TestChromiumLayout1280 measures it in Chromium).
//
// # Tables and banners
//
// The comparison table (n, mean, standard deviation, 95 % CI, Δ % against
// the baseline, Welch's p and the verdict, from analysis.SummarizeRun, so
// the same figures as the text, Markdown and CSV reports), the variants with their sweep values and server
// environment, the per-repetition totals (a failed repetition's reason on
// a row of its own), what each repetition counted outside its window
// (warm-up, drained, cut off by stage, TIME_WAIT sockets), latency
// percentiles, in an open loop the starts due and missed and the latency
// from the intended start per variant (each repetition's open-loop,
// missed and back-off lines under its row), worker
// groups, CPU (the client's figures from analysis.RepReport.ClientCPU), errors by class with their first message, negotiated TLS
// parameters, server probes and the compiled plan. When any variant ran
// crypto speed commands, a crypto speed table (analysis.SummarizeSpeed: the
// text report's figures and Δ % against the baseline) and the failed
// commands with their error. A red banner says so
// when kaeload itself used at least results.ClientBoundBusy of any group's
// CPUs (analysis.ClientBoundGroups): the result then measures kaeload, not
// the server. A yellow one names the other processes that took a large
// share of a group's CPUs (analysis.OtherLoadGroups). Interrupted runs and the
// run's warnings get banners too.
//
// # Layer rule
//
// htmlreport formats and computes nothing: it takes an analysis.Report
// and imports the record, the statistics' types, format, analysis and
// the table model (results/tables); never results/render, nor the run
// directory.
package htmlreport
