package plans

import (
	"fmt"
	"net"
	"strconv"
	"time"
)

// Metrics is the run's live metrics endpoint (scenario metrics:, or
// kaeload run --metrics): where /metrics is served while the run goes
// on, and how long the load and the run's end wait for Prometheus.
type Metrics struct {
	// Listen is the address to serve on, host:port ("127.0.0.1:0" picks
	// a free port; ":9464" every interface).
	Listen string `json:"listen"`
	// Wait, when positive, holds the first load until a Prometheus
	// scrape has read the zeros, for at most this long (the run fails
	// without load when none comes).
	Wait time.Duration `json:"wait,omitempty"`
	// Linger bounds how long the run's end (and a later planned window's
	// load) waits for a scrape of the final values (the zeros); 0: three
	// observed scrape intervals, DefaultLinger while none was observed.
	Linger time.Duration `json:"linger,omitempty"`
}

// Bounds of the metrics section.
const (
	// DefaultLinger is the linger while no scrape interval was observed.
	DefaultLinger = 15 * time.Second
	// MaxMetricsWait bounds metrics.wait and metrics.linger.
	MaxMetricsWait = 10 * time.Minute
)

// MetricsWaitBound is the limit of metrics.wait and metrics.linger.
var MetricsWaitBound = DurationLimit{MaxMetricsWait, true, "a wait for Prometheus; its scrape interval is seconds"}

// ListenProblem says what is wrong with a metrics listen address, or "".
func ListenProblem(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q is not host:port (e.g. 127.0.0.1:9464, :9464, or 127.0.0.1:0 for a free port)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Sprintf("%q: port %q is not a number from 0 to 65535", addr, port)
	}
	return ""
}
