package accel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// Keys are the settings Set and Parse accept, in the order String writes them.
var Keys = []string{"capacity", "latency", "soft-cpu", "offload-cpu", "engines", "queue", "threshold", "mode", "policy"}

// Defaults is the device the seeds describe (docs/ explains the model).
func Defaults() plans.Accel {
	return plans.Accel{
		// Below what one CPU signs in software, so neither end is best on
		// one server CPU: a mix keeps both busy (~1,100 req/s at r ≈ 0.5).
		Capacity: 600,
		Latency:  2 * time.Millisecond, // a hardware round trip: in sync mode, more CPU than soft-cpu
		// bssl speed -filter RSA, RSA-2048 signing at 801.2 ops/s on one CPU
		// (shared/fixtures/bssl-speed-rsa.txt): 1.248 ms.
		SoftCPU:    time.Duration(math.Round(float64(time.Second) / 801.2)),
		OffloadCPU: 50 * time.Microsecond, // submit, collect, and the real ECDSA P-256 signature (~32 us)
		Engines:    1,
		Queue:      1024, // a few hundred connections never see RETRY; threshold 0: derived
		Mode:       "async",
		Policy:     "ratio",
	}
}

// Parse reads a spec such as "capacity=600/s,latency=2ms,mode=sync" over base.
func Parse(spec string, base plans.Accel) (plans.Accel, error) {
	c := base
	for _, kv := range strings.Split(spec, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return c, fmt.Errorf("accel: %q: want key=value (keys: %s)", kv, strings.Join(Keys, ", "))
		}
		if err := Set(&c, strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return c, err
		}
	}
	return c, Check(c)
}

// choices are the words mode and policy accept.
var choices = map[string][]string{"mode": {"async", "sync"}, "policy": {"ratio", "overflow"}}

// Set sets one key of c from its text; the error names the key.
func Set(c *plans.Accel, key, val string) error {
	durations := map[string]*time.Duration{"latency": &c.Latency, "soft-cpu": &c.SoftCPU, "offload-cpu": &c.OffloadCPU}
	counts := map[string]*int{"engines": &c.Engines, "queue": &c.Queue, "threshold": &c.Threshold}
	var err error
	if d := durations[key]; d != nil {
		if *d, err = time.ParseDuration(val); err != nil || *d < 0 {
			err = fmt.Errorf("want a duration such as 2ms or 30us")
		}
	} else if n := counts[key]; n != nil {
		least := 0
		if key == "engines" {
			least = 1
		}
		if *n, err = strconv.Atoi(val); err != nil || *n < least {
			err = fmt.Errorf("want a whole number, %d or more", least)
		}
	} else if want := choices[key]; want != nil {
		if !slices.Contains(want, val) {
			return fmt.Errorf("accel: %s=%q: want %s", key, val, strings.Join(want, " or "))
		}
		*map[string]*string{"mode": &c.Mode, "policy": &c.Policy}[key] = val
	} else if key == "capacity" {
		c.Capacity, err = strconv.ParseFloat(strings.TrimSuffix(val, "/s"), 64)
		if err != nil || !(c.Capacity > 0) || math.IsInf(c.Capacity, 0) {
			err = fmt.Errorf("want operations per second above 0, such as 600/s")
		}
	} else {
		return fmt.Errorf("accel: unknown key %q (want one of %s)", key, strings.Join(Keys, ", "))
	}
	if err != nil {
		return fmt.Errorf("accel: %s=%q: %w", key, val, err)
	}
	return nil
}

// Check reports a setting out of range, naming its key.
func Check(c plans.Accel) error {
	switch {
	case c.Capacity <= 0:
		return fmt.Errorf("accel: capacity must be above 0")
	case c.Engines < 1:
		return fmt.Errorf("accel: engines must be 1 or more")
	case !slices.Contains(choices["mode"], c.Mode):
		return fmt.Errorf("accel: mode %q: want async or sync", c.Mode)
	case !slices.Contains(choices["policy"], c.Policy):
		return fmt.Errorf("accel: policy %q: want ratio or overflow", c.Policy)
	}
	return nil
}

// String writes c as a spec that Parse reads back.
func String(c plans.Accel) string {
	return fmt.Sprintf("capacity=%g/s,latency=%v,soft-cpu=%v,offload-cpu=%v,engines=%d,queue=%d,threshold=%d,mode=%s,policy=%s",
		c.Capacity, c.Latency, c.SoftCPU, c.OffloadCPU, c.Engines, c.Queue, Threshold(c), c.Mode, c.Policy)
}

// Service is an engine's time per operation: together they do Capacity/s.
func Service(c plans.Accel) time.Duration {
	return time.Duration(float64(c.Engines) * float64(time.Second) / c.Capacity)
}

// Threshold is the overflow policy's bound on operations in flight: c's, or
// the device's concurrency at capacity (Little's law) plus one waiting per
// engine, so that it stays busy while the rest goes to software.
func Threshold(c plans.Accel) int {
	if c.Threshold > 0 {
		return c.Threshold
	}
	in := max(Service(c), c.Latency)
	return int(math.Ceil(c.Capacity*in.Seconds())) + c.Engines
}
