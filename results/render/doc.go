// Package render writes a run's Report as text, Markdown, CSV and the JSON
// summary, and stored runs compared. It formats and computes nothing. See
// docs/outputs.md.
package render
