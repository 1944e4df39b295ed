package htmlreport

import (
	"embed"
	"html/template"
)

//go:embed templates/*.html
var templateFiles embed.FS

// pageTemplate is the page (templates/page.html) and its parts. It is
// XHTML-style (void elements self-closed), so the page is well-formed XML,
// which the tests check; everything it needs is inline, with no script.
var pageTemplate = template.Must(template.New("page.html").ParseFS(templateFiles, "templates/*.html"))
