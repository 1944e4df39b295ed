package scenarios

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/speed"
)

// AcceleratorSpec is the accelerator section: the device's capacity, D of
// the soft-ratio model, as a figure or as the openssl speed output that
// measured it; exactly one.
type AcceleratorSpec struct {
	Capacity *float64 `yaml:"capacity"`
	Speed    *string  `yaml:"speed"` // relative to the scenario file
}

// accelerator resolves the accelerator section (nil: left out).
func (c *compiler) accelerator(t plans.Target) *plans.Accelerator {
	as := c.s.Accelerator
	switch {
	case as == nil:
		return nil
	case t.Builtin != nil && t.Builtin.Accel != nil:
		c.errorf("accelerator", "the built-in target's simulated device has its capacity in target.builtin.accel: "+
			"leave accelerator out")
		return nil
	case c.leftOut("accelerator.capacity") || c.leftOut("accelerator.speed"): // its error is said
		return nil
	case (as.Capacity == nil) == (as.Speed == nil):
		c.errorf("accelerator", "give one of capacity (the device's signatures per second) and speed (the "+
			"openssl speed output that measured them)")
		return nil
	case as.Capacity != nil:
		if d := *as.Capacity; !(d > 0) || math.IsInf(d, 0) {
			c.errorf("accelerator.capacity", "%v is not a positive number of signatures per second", d)
		}
		return &plans.Accelerator{Capacity: *as.Capacity}
	}
	a := &plans.Accelerator{Speed: *as.Speed}
	file := a.Speed
	if !filepath.IsAbs(file) {
		file = filepath.Join(filepath.Dir(c.s.file), file) // relative to the scenario
	}
	text, err := readSmallFile(file, 1<<20)
	if err != nil {
		c.errorf("accelerator.speed", "read the speed output: %v", err)
		return a
	}
	rs, err := speed.Parse(string(text))
	var signs []results.SpeedResult
	for _, r := range rs {
		if r.Operation == "sign" || r.Operation == "signing" {
			signs = append(signs, r)
		}
	}
	switch {
	case err != nil:
		c.errorf("accelerator.speed", "%s: %v", a.Speed, err)
	case len(signs) == 0:
		c.errorf("accelerator.speed", "%s has no signing figure (want the output of openssl speed -elapsed "+
			"-async_jobs N -multi N rsa2048, with the engine)", a.Speed)
	case !(signs[0].Value > 0) && len(signs) == 1:
		c.errorf("accelerator.speed", "%s: its %s figure is %v, not a positive number of signatures per second",
			a.Speed, signs[0].Label(), signs[0].Value)
	case len(signs) > 1:
		labels := make([]string, len(signs))
		for i, r := range signs {
			labels[i] = r.Label()
		}
		c.errorf("accelerator.speed", "%s has %d signing figures (%s): keep the one the server's certificate "+
			"signs with, or give capacity", a.Speed, len(signs), strings.Join(labels, ", "))
	default:
		a.Capacity, a.Figure = signs[0].Value, signs[0].Label()
	}
	return a
}
