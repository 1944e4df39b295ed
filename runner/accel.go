package runner

import (
	"fmt"
	"os"

	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
	"github.com/kaeload/kaeload/target"
)

// accelSession gives the built-in target's accelerator variant v's env, as
// a restarted server would see it (a fresh device); a bad value gives up on
// the variant as a failed start does.
func (c *controller) accelSession(v plans.Variant) error {
	if c.target == nil || c.target.Accel() == nil {
		return nil
	}
	a, err := c.target.SetAccel(func(k string) string {
		if val, ok := v.Env[k]; ok {
			return val
		}
		return os.Getenv(k)
	})
	if err != nil {
		return &startError{reason: "built-in target: " + err.Error(), err: fmt.Errorf("variant %s: built-in target: %w", v.Name, err)}
	}
	fmt.Fprintf(c.opts.Log, "variant %s: built-in target's accelerator: %v\n", v.Name, a)
	return nil
}

// accelProbes adds the counters of srv's accelerator to every variant's
// probes, read in this process.
func accelProbes(probes [][]server.Probe, srv *target.Server) [][]server.Probe {
	if srv == nil || srv.Accel() == nil {
		return probes
	}
	for i := range probes {
		for _, name := range target.AccelProbeNames {
			probes[i] = append(probes[i], server.Probe{Name: name, Func: func() float64 { return srv.AccelProbe(name) }})
		}
	}
	return probes
}
