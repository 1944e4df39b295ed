// Package format renders numbers and short phrases the same way in every
// output: the text, Markdown and CSV reports, report.html and the live
// progress line.
//
// Every report renders numbers with the same formatters (Count,
// Rate, Percent, QuantileMillis, StatusLine and
// the others; Missing for an undefined value), so a figure reads the same
// in the terminal, in Markdown and in report.html.
//
// # Layer rule
//
// format imports only the record (results) and the statistics' types
// (results/stats): it turns a value into a string and decides nothing, so
// the analysis (for its sentences), the table model, the renderers and
// the controller's progress line can all use it.
package format
