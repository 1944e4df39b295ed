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
// probe deltas and every sweep as a table with an ASCII bar chart.
// WriteMarkdown writes the same tables as GitHub Markdown, WriteCSV one
// row per variant × repetition plus a statistics row per variant
// (summary.csv), WriteSummaryJSON the JSON summary, WriteSpeedCSV one row
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
// when one calls an analysis or statistics function.
package render
