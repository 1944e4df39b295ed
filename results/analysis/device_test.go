package analysis

import (
	"encoding/json"
	"testing"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestDeviceCapacity: the soft-ratio prediction reads D from a stored plan as the plan writes it:
// the built-in target's simulated device's capacity, else the accelerator section's, else none.
func TestDeviceCapacity(t *testing.T) {
	for _, c := range []struct {
		name string
		plan plans.Plan
		want float64
	}{
		{"none", plans.Plan{}, 0},
		{"accelerator", plans.Plan{Accelerator: &plans.Accelerator{Capacity: 1371.6, Speed: "kae-speed.txt"}}, 1371.6},
		{"simulated", plans.Plan{Target: plans.Target{Builtin: &plans.Builtin{Accel: &plans.Accel{Capacity: 300}}}}, 300},
		{"built-in, no device", plans.Plan{Target: plans.Target{Builtin: &plans.Builtin{}},
			Accelerator: &plans.Accelerator{Capacity: 50}}, 50},
	} {
		raw, err := json.Marshal(&c.plan)
		if err != nil {
			t.Fatal(err)
		}
		if got := deviceCapacity(readPlan(raw)); got != c.want {
			t.Errorf("%s: D %v, want %v (plan %s)", c.name, got, c.want, raw)
		}
	}
}
