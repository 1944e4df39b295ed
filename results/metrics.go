package results

import "time"

// Metrics is the record of a run's live metrics endpoint (kaeload run
// --metrics ADDR): where it listened, what scraped it, and, for every
// window and for the run's end, whether a scrape that began after the
// final values were set was served before the run moved on (the values
// of a window never change after its end, so a later scrape reads them
// too) or ended.
type Metrics struct {
	// Listen is the address asked for ("127.0.0.1:0", ":9464").
	Listen string `json:"listen"`
	// Addr is the address served, with the port bound ("127.0.0.1:41234").
	Addr string `json:"addr"`
	// Port is Addr's port.
	Port int `json:"port"`
	// Scrapes is the number of Prometheus scrapes served (requests with
	// an X-Prometheus-Scrape-Timeout-Seconds header); Others the other
	// requests of /metrics served (curl, a browser).
	Scrapes int `json:"scrapes"`
	Others  int `json:"others,omitempty"`
	// ScrapeInterval is the median time between the starts of the
	// Prometheus scrapes; 0 with fewer than two.
	ScrapeInterval time.Duration `json:"scrape_interval,omitempty"`
	// Linger bounds how long the run's end waited for a scrape of its
	// final values.
	Linger time.Duration `json:"linger"`
	// Waited is how long the load waited before its first window for a
	// scrape of the zeros (--metrics-wait); 0 when it did not wait.
	Waited time.Duration `json:"waited,omitempty"`
	// Windows are the measured windows, in the order they ran.
	Windows []MetricsFinal `json:"windows,omitempty"`
	// End is the run's end: the last values of all.
	End MetricsFinal `json:"end"`
}

// MetricsFinal is one set of final values: a window's (Variant and Rep
// name it) or the run's end (both empty).
type MetricsFinal struct {
	// Variant and Rep (the index of run.json's repetition) name the
	// window; "" and 0 for the run's end.
	Variant string `json:"variant,omitempty"`
	Rep     int    `json:"rep,omitempty"`
	// Final is when the final values were set.
	Final time.Time `json:"final"`
	// Scraped is when the first Prometheus scrape that began after Final
	// began; zero when none was served.
	Scraped time.Time `json:"scraped,omitzero"`
}

// WasScraped reports whether a Prometheus scrape read the final values.
func (f *MetricsFinal) WasScraped() bool { return !f.Scraped.IsZero() }

// Unscraped returns the windows whose final values no scrape read.
func (m *Metrics) Unscraped() []MetricsFinal {
	var out []MetricsFinal
	for _, w := range m.Windows {
		if !w.WasScraped() {
			out = append(out, w)
		}
	}
	return out
}
