package plans

import (
	"reflect"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestRandomizedSteps: the default order runs every variant once per
// round, restarting the server before each window, in BlockOrder's order.
func TestRandomizedSteps(t *testing.T) {
	p := &Plan{Order: results.OrderRandomized, Seed: 42, SeedSet: true, Repeat: 3, Server: &Server{},
		Variants: []Variant{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}}
	steps := p.Steps()
	if len(steps) != 15 {
		t.Fatalf("%d steps, want 15", len(steps))
	}
	for r := range 3 {
		order := results.BlockOrder(42, 5, r)
		for i, v := range order {
			st := steps[r*5+i]
			if st.Variant != v || st.Rep != r || !st.Restart {
				t.Errorf("round %d step %d = %+v, want variant %d rep %d with a restart", r, i, st, v, r)
			}
		}
	}
	if q := p.WithSeed(43); reflect.DeepEqual(q.Steps(), steps) || p.Seed != 42 || !q.SeedSet {
		t.Errorf("WithSeed(43) kept the order of seed 42 or changed the original plan")
	}
}

// TestSteps checks the schedule: order of variants and repetitions, and
// where the server restarts.
func TestSteps(t *testing.T) {
	vs := []Variant{{Name: "a"}, {Name: "b"}}
	srv := &Server{Host: "local"}
	tests := []struct {
		name string
		plan Plan
		want []Step
	}{
		{"sequential restarts per variant", Plan{Variants: vs, Repeat: 2, Order: results.OrderSequential, Server: srv},
			[]Step{{0, 0, true}, {0, 1, false}, {1, 0, true}, {1, 1, false}}},
		{"interleaved restarts every step", Plan{Variants: vs, Repeat: 2, Order: results.OrderInterleaved, Server: srv},
			[]Step{{0, 0, true}, {1, 0, true}, {0, 1, true}, {1, 1, true}}},
		{"no server, no restarts", Plan{Variants: vs, Repeat: 2, Order: results.OrderInterleaved},
			[]Step{{0, 0, false}, {1, 0, false}, {0, 1, false}, {1, 1, false}}},
		{"empty order is sequential", Plan{Variants: vs[:1], Repeat: 3, Server: srv},
			[]Step{{0, 0, true}, {0, 1, false}, {0, 2, false}}},
	}
	for _, tt := range tests {
		if got := tt.plan.Steps(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
