// Package render writes a run's Report as text, Markdown, CSV and the
// JSON summary, stored runs compared (CompareRuns), and the crypto speed
// files.
//
// # Rendering
//
// Each renderer takes a Report. WriteText writes the plain-text report
// for a terminal or CI log: per
// variant and repetition the totals, CPU, probe readings, latency
// percentiles in ms and a per-group table with the spread, then, when
// there is more than one variant or repetition, the comparison table, the
// probe deltas and every sweep as a table with an ASCII bar chart; each
// repetition also shows what its timeline says (rate by second, stalls,
// the TCP counters that grew, "no timeline" for older runs) and its
// diagnoses with cause, figure, consequence and fix, which the banner
// names too.
// WriteMarkdown writes the same tables as GitHub Markdown, WriteCSV one
// row per variant × repetition plus a statistics row per variant
// (summary.csv), WriteSummaryJSON the JSON summary (each repetition with
// its timeline points, a tcp object of per-host counter deltas and its
// diagnoses), WriteSpeedCSV one row
// per crypto speed figure (speed.csv), and CompareRuns lines up the variants of several stored
// runs against the first ("did last week's kernel update change
// anything?").
//
// # Layer rule
//
// render formats and computes nothing: every writer takes an
// analysis.Report (or RunsReport) and writes its fields, through the
// table model (results/tables) that the HTML report shares, and the
// formatters (results/format). It imports the record, the statistics'
// types, format, analysis and tables; never results/htmlreport, nor the
// run directory. TestRenderersComputeNothing parses the writers and fails
// when one calls an analysis, statistics or diagnosis function.
package render
