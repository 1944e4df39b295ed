package plans

import (
	"fmt"
	"math"
	"net"
	"strconv"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
)

// Metrics is the live metrics endpoint: where /metrics is served, and how
// long the load and the run's end wait for Prometheus.
type Metrics struct {
	Listen string `json:"listen"` // host:port; port 0 picks a free one
	// Wait holds the first load until a scrape has read the zeros, at most this long.
	Wait time.Duration `json:"wait,omitempty"`
	// Linger bounds the wait for a scrape of the final values; 0: three
	// observed scrape intervals, or DefaultLinger.
	Linger time.Duration `json:"linger,omitempty"`
}

// DefaultLinger is the linger while no scrape interval was observed;
// MaxMetricsWait bounds metrics.wait and metrics.linger.
const (
	DefaultLinger  = 15 * time.Second
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

// Quiet is the wait before each window until other processes take less
// than MaxOther of the watched CPUs for For, at most Timeout (then flagged).
type Quiet struct {
	MaxOther float64       `json:"max_other"`
	For      time.Duration `json:"for"`
	Timeout  time.Duration `json:"timeout"`
}

// DefaultQuiet is quiet: {} and --wait-quiet.
var DefaultQuiet = Quiet{MaxOther: 0.10, For: 5 * time.Second, Timeout: 2 * time.Minute}

// QuietBound bounds quiet.for and quiet.timeout.
var QuietBound = DurationLimit{time.Hour, false, "a wait before each window"}

// MaxOtherProblem says what is wrong with quiet.max_other, or "".
func MaxOtherProblem(f float64) string {
	if math.IsNaN(f) || f <= 0 || f > 1 {
		return fmt.Sprintf("want a share above 0%% and at most 100%%, got %s", numfmt.Percent(f))
	}
	return ""
}
