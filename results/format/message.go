package format

import (
	"strconv"
	"unicode/utf8"
)

// maxMessage is how many bytes of a first error message the text report shows.
const maxMessage = 120

// Message quotes an error message, cut to maxMessage bytes.
func Message(s string) string {
	if s == "" {
		return "(no message)"
	}
	if len(s) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}
