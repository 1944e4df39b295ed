package analysis

import (
	"github.com/kaeload/kaeload/results"
	"math"
	"testing"
)

// TestClientCPUPartialOverlap: groups on 0-1 and 1-2 count CPU 1 once; a
// group without per-CPU figures (an older run) counts once per CPU list;
// an unpinned group adds its own process time.
func TestClientCPUPartialOverlap(t *testing.T) {
	a := pinnedGroup(0, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
	b := pinnedGroup(1, "1-2", []int{1, 2}, []float64{2.2, 0.5}, -1, 100)
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
	remote := pinnedGroup(3, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
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

// pinnedGroup is a group pinned to cpus, busy perCPU seconds each over a 3 s window, its worker
// using proc CPU-seconds (< 0: not measured).
func pinnedGroup(index int, list string, cpus []int, perCPU []float64, proc float64, requests uint64) results.Group {
	u := &results.CPUUsage{CPUs: list}
	for i, c := range cpus {
		u.PerCPU = append(u.PerCPU, results.CPUTime{CPU: c, Seconds: perCPU[i]})
		u.Seconds += perCPU[i]
	}
	u.Busy = u.Seconds / (3 * float64(len(cpus)))
	g := results.Group{Index: index, CPUs: list, Counts: results.Counts{Requests: requests}, CPU: u}
	if proc >= 0 {
		g.Process = &results.CPUUsage{Seconds: proc}
	}
	return g
}
