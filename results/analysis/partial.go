package analysis

import (
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// PartialLines returns one line per window an interrupt cut short
// (Variant.Partial), variants in order, as every report shows it after
// "PARTIAL:": "variant default rep 1: interrupted after 4.01 s of its 10s
// window: 12,345 requests, 3,078.6 req/s, 0 errors; kept, not in the
// statistics". Nil when no window was cut short.
func PartialLines(r *results.Run) notes.List {
	var lines notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Partial {
			p := &v.Partial[j]
			t := &p.Total
			lines = append(lines, notes.New(notes.PartialWindow, "variant", v.Name, "rep", p.Index+1, "seconds", t.Window.Length().Seconds(),
				"planned", p.PartialOf.Round(time.Millisecond), "requests", t.Requests, "rate", t.Rate(), "errors", t.Errors.Total()))
		}
	}
	return lines
}
