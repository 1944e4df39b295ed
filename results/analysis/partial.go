package analysis

import (
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// PartialLines returns one line per window an interrupt or a lost worker
// cut short (Variant.Partial), variants in order, as every report shows
// it after "PARTIAL:" (PartialLine). Nil when no window was cut short.
func PartialLines(r *results.Run) notes.List {
	var lines notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Partial {
			lines = append(lines, PartialLine(v.Name, &v.Partial[j]))
		}
	}
	return lines
}

// PartialLine says what window p of the variant named measured until it
// was cut short: "variant default rep 1: interrupted after 4.01 s of its
// 10s window: 12,345 requests, 3,078.6 req/s, 0 errors; kept, not in the
// statistics". A lost worker's window is FAILED, and the run INCOMPLETE:
// the line names the group, its host and why, and counts the others.
func PartialLine(variant string, p *results.Rep) notes.Note {
	t := &p.Total
	n := notes.New(notes.PartialWindow, "variant", variant, "rep", p.Index+1, "seconds", t.Window.Length().Seconds(),
		"planned", p.PartialOf.Round(time.Millisecond), "requests", t.Requests, "rate", t.Rate(), "errors", t.Errors.Total())
	if l := p.Lost; l != nil {
		n.Args["lost_group"], n.Args["lost_host"], n.Args["lost_why"], n.Args["lost_requests"] = l.Group, l.Host, l.Why, l.Requests
	}
	return n
}
