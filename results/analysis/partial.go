package analysis

import (
	"fmt"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// PartialLines returns one line per window an interrupt cut short
// (Variant.Partial), variants in order, as every report shows it after
// "PARTIAL:": "variant default rep 1: interrupted after 4.01 s of its 10s
// window: 12,345 requests, 3,078.6 req/s, 0 errors; kept, not in the
// statistics". Nil when no window was cut short.
func PartialLines(r *results.Run) []string {
	var lines []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Partial {
			p := &v.Partial[j]
			t := &p.Total
			lines = append(lines, fmt.Sprintf("variant %s rep %d: interrupted after %s s of its %s window: %s requests, %s req/s, %s errors; kept, not in the statistics",
				v.Name, p.Index+1, format.Float(t.Window.Length().Seconds(), 2), p.PartialOf.Round(time.Millisecond),
				format.Count(t.Requests), format.Rate(t.Rate()), format.Count(t.Errors.Total())))
		}
	}
	return lines
}
