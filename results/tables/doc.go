// Package tables lays a run's Report out once as titled tables of cells
// and banners, which the text, Markdown and HTML reports all write.
package tables
