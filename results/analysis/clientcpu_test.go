package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"math"
	"testing"
)

// TestClientCPUPartialOverlap: groups on 0-1 and 1-2 count CPU 1 once; a
// group without per-CPU figures (an older run) counts once per CPU list;
// an unpinned group adds its own process time.
func TestClientCPUPartialOverlap(t *testing.T) {
	a := fixture.PinnedGroup(0, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
	b := fixture.PinnedGroup(1, "1-2", []int{1, 2}, []float64{2.2, 0.5}, -1, 100)
	rep := results.NewRep(0, []results.Group{a, b})
	c := RepClientCPU(&rep)
	if got, want := c.Seconds, 1+2.1+0.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("seconds %.3f, want %.3f", got, want)
	}
	if _, own, ok := c.PerRequest(200); !ok || own {
		t.Errorf("PerRequest own %v ok %v: want the CPUs' time (no process readings)", own, ok)
	}

	old := func(i int) results.Group {
		return results.Group{Index: i, CPUs: "4-5", CPU: &results.CPUUsage{CPUs: "4-5", Seconds: 5, Busy: 0.8}}
	}
	unpinned := results.Group{Index: 2, CPU: &results.CPUUsage{CPUs: "0-7", Seconds: 1.5}}
	// The same CPU list on another host is other CPUs.
	remote := fixture.PinnedGroup(3, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
	remote.Host = "client2"
	rep = results.NewRep(0, []results.Group{a, remote})
	if got, want := RepClientCPU(&rep).Seconds, 3.0+3.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("two hosts: seconds %.3f, want %.3f", got, want)
	}

	rep = results.NewRep(0, []results.Group{old(0), old(1), unpinned})
	c = RepClientCPU(&rep)
	if got, want := c.Seconds, 5+1.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("older run: seconds %.3f, want %.3f", got, want)
	}
	if c.Measured != 3 || c.ProcessMeasured != 0 || c.BusyMax != 0.8 || c.BusyMaxGroup != 0 {
		t.Errorf("older run: %+v", c)
	}
	if got, want := c.BusyMean, (0.8+0.8+0)/3; math.Abs(got-want) > 1e-12 { // report.html's "client mean"
		t.Errorf("older run: busy mean %.4f, want %.4f", got, want)
	}
}
