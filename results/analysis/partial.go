package analysis

import (
	"fmt"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// PartialLines returns one line per window an interrupt or a lost worker
// cut short (Variant.Partial), variants in order, as every report shows
// it after "PARTIAL:" (PartialLine). Nil when no window was cut short.
func PartialLines(r *results.Run) []string {
	var lines []string
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
func PartialLine(variant string, p *results.Rep) string {
	t := &p.Total
	what, whose := "interrupted", ""
	if l := p.Lost; l != nil {
		host := ""
		if l.Host != "" {
			host = " on host " + l.Host
		}
		what = fmt.Sprintf("FAILED, the run is INCOMPLETE: group %d%s was lost (%s)", l.Group, host, l.Why)
		whose = fmt.Sprintf(" (the other groups'; group %d had reported %s)", l.Group, format.Count(l.Requests))
	}
	return fmt.Sprintf("variant %s rep %d: %s after %s s of its %s window: %s requests%s, %s req/s, %s errors; kept, not in the statistics",
		variant, p.Index+1, what, format.Float(t.Window.Length().Seconds(), 2), p.PartialOf.Round(time.Millisecond),
		format.Count(t.Requests), whose, format.Rate(t.Rate()), format.Count(t.Errors.Total()))
}
