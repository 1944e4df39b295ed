package measure_test

import (
	"encoding/json"
	"testing"

	"github.com/kaeload/kaeload/results/measure"
)

// TestFieldsGet reads a path through objects built in memory and read back from JSON.
func TestFieldsGet(t *testing.T) {
	f := measure.Fields{{"server", measure.Fields{{"saturation_reps", 2}}}}
	f.Set("latency_ms.total_p99", 1.5)
	var back measure.Fields
	if err := json.Unmarshal([]byte(`{"server":{"saturation_reps":2}}`), &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Get("server.saturation_reps"); got != 2.0 {
		t.Errorf("read back: Get(server.saturation_reps) = %v, want 2", got)
	}
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

// TestFieldsSetShared: rows sharing a nested object's array each keep their own Set.
func TestFieldsSetShared(t *testing.T) {
	shared := make(measure.Fields, 1, 4)
	shared[0] = measure.Field{Key: "x", Value: 1}
	r1, r2 := measure.Fields{{"s", shared}}, measure.Fields{{"s", shared}}
	r1.Set("s.y", 1)
	r2.Set("s.y", 2)
	if a, b := r1.Get("s.y"), r2.Get("s.y"); a != 1 || b != 2 {
		t.Errorf("s.y = %v and %v, want 1 and 2", a, b)
	}
}
