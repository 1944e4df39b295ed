package cpustat

import (
	"math"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// TestTreeUsageAccounting checks the process-by-process rules of
// TreeSample.Usage on hand-made samples.
func TestTreeUsageAccounting(t *testing.T) {
	k := func(pid int) procKey { return procKey{pid: pid, start: uint64(pid) * 10} }
	tree := func(procs map[procKey]float64, alive ...procKey) TreeSample {
		ts := TreeSample{CPUs: pinning.Set{0, 1}, procs: procs, alive: map[procKey]struct{}{}}
		for p := range procs {
			ts.alive[p] = struct{}{}
		}
		for _, p := range alive {
			ts.alive[p] = struct{}{}
		}
		return ts
	}
	for _, tc := range []struct {
		name string
		a, b TreeSample
		want float64
	}{
		{"long-lived members: deltas", tree(map[procKey]float64{k(1): 5, k(2): 10}), tree(map[procKey]float64{k(1): 5.5, k(2): 11}), 1.5},
		{"new member counts from 0", tree(map[procKey]float64{k(1): 5}), tree(map[procKey]float64{k(1): 5, k(3): 0.4}), 0.4},
		// Worker 2 (10 s at a) exits after 0.3 s more; the master reaps it,
		// so its reaped-children time grows by 10.3.
		{"exited member reaped by root", tree(map[procKey]float64{k(1): 5, k(2): 10}), tree(map[procKey]float64{k(1): 15.3}), 0.3},
		// Process 2 was reparented to init: still alive, no longer ours.
		{"member left the tree alive", tree(map[procKey]float64{k(1): 5, k(2): 10}), tree(map[procKey]float64{k(1): 5.2}, k(2)), 0.2},
		// PID 2 was reused by a new process: the old one exited (reaped by 1).
		{"reused PID is a new process", tree(map[procKey]float64{k(1): 5, k(2): 10}),
			tree(map[procKey]float64{k(1): 15, {pid: 2, start: 999}: 0.1}), 0.1},
		{"never negative", tree(map[procKey]float64{k(1): 5, k(2): 10}), tree(map[procKey]float64{k(1): 5}), 0},
	} {
		got := tc.a.Usage(tc.b, time.Second)
		want := results.CPUUsage{CPUs: "0-1", Seconds: tc.want, Busy: tc.want / 2}
		if got.CPUs != want.CPUs || math.Abs(got.Seconds-want.Seconds) > 1e-9 || math.Abs(got.Busy-want.Busy) > 1e-9 {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, want)
		}
	}
}
