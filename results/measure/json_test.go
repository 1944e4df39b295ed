package measure_test

import (
	"testing"

	"github.com/kaeload/kaeload/results/measure"
)

// TestFieldsGet reads a path through objects built in memory (Fields) and read back (*Fields).
func TestFieldsGet(t *testing.T) {
	f := measure.Fields{{"server", measure.Fields{{"saturation_reps", 2}}}}
	f.Set("latency_ms.total_p99", 1.5)
	for _, tc := range []struct {
		path string
		want any
	}{
		{"server.saturation_reps", 2},
		{"latency_ms.total_p99", 1.5},
		{"server.shared_reps", nil},
		{"absent.saturation_reps", nil},
	} {
		if got := f.Get(tc.path); got != tc.want {
			t.Errorf("Get(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
