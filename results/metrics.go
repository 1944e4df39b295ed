package results

import "time"

// Metrics records the live metrics endpoint (--metrics), its scrapes, and whether a scrape read
// each set of final values.
type Metrics struct {
	Listen         string         `json:"listen"` // as asked: ":9464"
	Addr           string         `json:"addr"`   // as served, port bound
	Port           int            `json:"port"`
	Scrapes        int            `json:"scrapes"`                   // Prometheus's, by their timeout header
	Others         int            `json:"others,omitempty"`          // other requests of /metrics
	ScrapeInterval time.Duration  `json:"scrape_interval,omitempty"` // median
	Linger         time.Duration  `json:"linger"`                    // the end's wait for a scrape
	Waited         time.Duration  `json:"waited,omitempty"`          // --metrics-wait
	Windows        []MetricsFinal `json:"windows,omitempty"`
	End            MetricsFinal   `json:"end"`
}

// MetricsFinal is a window's final values, or the run's end's (Variant "");
// Scraped is zero when no scrape begun after Final read them.
type MetricsFinal struct {
	Variant string    `json:"variant,omitempty"`
	Rep     int       `json:"rep,omitempty"`
	Final   time.Time `json:"final"`
	Scraped time.Time `json:"scraped,omitzero"`
}

// WasScraped reports whether a Prometheus scrape read the final values.
func (f *MetricsFinal) WasScraped() bool { return !f.Scraped.IsZero() }

// Unscraped returns the windows whose final values no scrape read.
func (m *Metrics) Unscraped() []MetricsFinal {
	return without(m.Windows, func(w MetricsFinal) bool { return w.WasScraped() })
}
