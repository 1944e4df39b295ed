package scenarios

import (
	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// accel resolves target.builtin.accel: nil when left out, else package
// accel's defaults with the keys given over them, each problem at its key.
func (c *compiler) accel(keys map[string]string) *plans.Accel {
	if keys == nil {
		return nil
	}
	cfg := accel.Defaults()
	for _, k := range sortedKeys(keys) {
		if err := accel.Set(&cfg, k, keys[k]); err != nil {
			c.errorf("target.builtin.accel."+k, "%v", err)
		}
	}
	return &cfg
}

// accelTarget reports whether s's target is the built-in one with an
// accelerator, whose variants need no server section to apply env to.
func accelTarget(s *Scenario) bool {
	return s.Target != nil && s.Target.Builtin != nil && s.Target.Builtin.Accel != nil
}
