package format

import (
	"strings"
	"unicode/utf8"
)

// maxPlain is how many bytes of a command's error Plain keeps.
const maxPlain = 300

// Plain writes a command's error message (a probe's, say) on one line as
// it is, not quoted: runs of white space, line breaks among them, become
// one space, and it is cut to maxPlain bytes. Unlike Message it leaves
// backslashes alone, so a pattern such as `send_cnt:\s*(\d+)` reads as
// written.
func Plain(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no message)"
	}
	if len(s) > maxPlain {
		cut := maxPlain
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
