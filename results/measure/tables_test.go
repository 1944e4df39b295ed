package measure

import (
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestLatencyRowWithoutHistogram: a repetition without an intended histogram has no cell, for
// every parameter latencyWords reads, rather than a nil histogram read.
func TestLatencyRowWithoutHistogram(t *testing.T) {
	m := latencyRow("intended", "from intended")
	for _, p := range []string{"count", "p50", "max"} {
		if got := m.Rep(&Rep{Rep: &results.Rep{}, Param: p}); got.Kind != None {
			t.Errorf("%s: got %+v, want none", p, got)
		}
	}
}
