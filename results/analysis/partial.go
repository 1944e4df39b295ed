package analysis

import (
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// PartialLines is one line per window cut short (Variant.Partial).
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

// PartialLine says what window p measured until an interrupt or a lost
// worker (named, with its host and why) cut it short.
func PartialLine(variant string, p *results.Rep) notes.Note {
	t := &p.Total
	n := notes.New(notes.PartialWindow, "variant", variant, "rep", p.Index+1, "seconds", t.Window.Length().Seconds(),
		"planned", p.PartialOf.Round(time.Millisecond), "requests", t.Requests, "rate", t.Rate(), "errors", t.Errors.Total())
	if l := p.Lost; l != nil {
		n.Args["lost_group"], n.Args["lost_host"], n.Args["lost_why"], n.Args["lost_requests"] = l.Group, l.Host, l.Why, l.Requests
	}
	return n
}
