// Package htmlreport renders a run's Report as report.html: one
// self-contained page (inline CSS and SVG, no script, no network) with the
// comparison, charts, timelines and tables. See docs/outputs.md.
package htmlreport
