// Package htmlreport renders a run's Report as report.html, one self-contained
// page with the comparison, charts, timelines and tables (docs/outputs.md).
package htmlreport
