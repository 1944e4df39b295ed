package analysis

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
)

// MetricsLine says in one line where the run's live metrics were served
// and whether Prometheus read the final values (of the run's end and of
// every window), and when; "" when the run served none.
func MetricsLine(r *results.Run) string {
	m := r.Metrics
	if m == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "live metrics served on %s: %s", m.Addr, plural(m.Scrapes, "Prometheus scrape"))
	if m.ScrapeInterval > 0 {
		fmt.Fprintf(&b, " about every %s", m.ScrapeInterval.Round(10*time.Millisecond))
	}
	if e := &m.End; e.WasScraped() {
		fmt.Fprintf(&b, "; the final values were scraped at %s (%s after they were set)",
			e.Scraped.Format("15:04:05.000"), e.Scraped.Sub(e.Final).Round(time.Millisecond))
	} else {
		fmt.Fprintf(&b, "; the final values were NOT scraped: no Prometheus scrape began within the linger (%s) after they were set, so Prometheus lacks the run's last interval", m.Linger)
	}
	un := m.Unscraped()
	switch {
	case len(m.Windows) == 0:
	case len(un) == 0:
		b.WriteString(", and every window's were")
	default:
		names := make([]string, len(un))
		for i, w := range un {
			names[i] = w.Variant + " rep " + strconv.Itoa(w.Rep+1)
		}
		fmt.Fprintf(&b, "; %d of %d windows' final values were not scraped (%s)", len(un), len(m.Windows), strings.Join(names, ", "))
	}
	return b.String()
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
