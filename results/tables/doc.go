// Package tables lays a Report out once as tables and banners for the text, Markdown and HTML reports.
package tables
