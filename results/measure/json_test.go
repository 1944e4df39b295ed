package measure_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
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

// TestSharedInMost: a variant's server CPUs were shared "in most" of its repetitions when more than
// half of those the verdict measured shared them.
func TestSharedInMost(t *testing.T) {
	m := analysis.Analyze(fixture.ServerCPUsRun())
	var col measure.Column
	for _, c := range measure.Columns(m, measure.JSON) {
		if c.Key == "server_cpus" {
			col = c
		}
	}
	for _, tc := range []struct {
		shared, n int
		want      bool
	}{{0, 3, false}, {1, 3, false}, {2, 3, true}, {3, 3, true}, {1, 2, false}, {2, 4, false}, {3, 4, true}} {
		x := measure.NewVariant(m, 0)
		s := *x.S
		s.ServerSharedReps, s.Stats.N, s.SaturationReps = tc.shared, tc.n, tc.n
		x.S = &s
		b, err := json.Marshal(col.OfVariant(x).JSON())
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`"shared_in_most":%v`, tc.want); !strings.Contains(string(b), want) {
			t.Errorf("%d of %d shared: %s, want %s", tc.shared, tc.n, b, want)
		}
	}
}
