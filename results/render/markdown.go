package render

import (
	"bytes"
	"strings"

	"github.com/kaeload/kaeload/results/tables"
)

// writeMarkdownTable writes t as a GitHub table, cells escaped.
func writeMarkdownTable(t *tables.Table, b *bytes.Buffer) {
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteByte('\n')
	}
	row(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		b.WriteString(map[bool]string{false: "---|", true: "---:|"}[rightAligned(t, i)])
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		row(r)
	}
}

// mdEscaper escapes the characters that Markdown would interpret in
// running text or a table cell.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`, "]", `\]`)

// mdEscape escapes s for Markdown text and table cells.
func mdEscape(s string) string { return mdEscaper.Replace(s) }

// upperFirst capitalises the first byte of an ASCII-initial string.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
