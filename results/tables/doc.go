// Package tables lays a run's Report out once as titled tables of cells
// (Table: title, header, rows, right-aligned columns) and banners
// (Notices, Facts): the comparison, probes, drift, sweeps with their
// charts, search, capacity, thresholds and crypto speed. The text and
// Markdown reports (results/render) write each table from the same cells,
// and report.html (results/htmlreport) takes the rows it shows from here,
// so a figure reads the same everywhere.
//
// # Layer rule
//
// tables imports the record, the statistics' types, format and the
// analysis; it computes no analysis (it reads the Report's fields) and
// writes no output format. The renderers import it; it imports none of
// them.
package tables
