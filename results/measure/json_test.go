package measure_test

import (
	"encoding/json"
	"testing"

	"github.com/kaeload/kaeload/results/measure"
)

// TestFieldsSet sets a path through objects built in memory, making those on the way.
func TestFieldsSet(t *testing.T) {
	f := measure.Fields{{"server", measure.Fields{{"saturation_reps", 2}}}}
	f.Set("latency_ms.total_p99", 1.5)
	f.Set("server.shared_reps", 3)
	f.Set("absent.saturation_reps", nil)
	b, err := json.Marshal(f)
	want := `{"server":{"saturation_reps":2,"shared_reps":3},"latency_ms":{"total_p99":1.5},"absent":{}}`
	if err != nil || string(b) != want {
		t.Errorf("Set: %s (%v), want %s", b, err, want)
	}
}

// TestFieldsSetShared: rows sharing a nested object's array each keep their own Set.
func TestFieldsSetShared(t *testing.T) {
	shared := make(measure.Fields, 1, 4)
	shared[0] = measure.Field{Key: "x", Value: 1}
	r1, r2 := measure.Fields{{"s", shared}}, measure.Fields{{"s", shared}}
	r1.Set("s.y", 1)
	r2.Set("s.y", 2)
	a, _ := json.Marshal(r1)
	b, _ := json.Marshal(r2)
	if string(a) != `{"s":{"x":1,"y":1}}` || string(b) != `{"s":{"x":1,"y":2}}` {
		t.Errorf("s = %s and %s, want y 1 and 2", a, b)
	}
}
