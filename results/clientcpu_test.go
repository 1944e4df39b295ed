package results

import (
	"math"
	"strings"
	"testing"
)

// pinnedGroup is a group pinned to cpus whose CPUs were busy for the given
// seconds each (per CPU, in the order of cpus) over a 3 s window, and
// whose worker process used proc CPU-seconds (proc < 0: not measured).
func pinnedGroup(index int, list string, cpus []int, perCPU []float64, proc float64, requests uint64) Group {
	g := Group{Index: index, CPUs: list}
	g.Requests = requests
	u := &CPUUsage{CPUs: list}
	for i, c := range cpus {
		u.PerCPU = append(u.PerCPU, CPUTime{CPU: c, Seconds: perCPU[i]})
		u.Seconds += perCPU[i]
	}
	u.Busy = u.Seconds / (3 * float64(len(cpus)))
	g.CPU = u
	if proc >= 0 {
		g.Process = &CPUUsage{Seconds: proc}
	}
	return g
}

// TestClientCPUOverlap: twelve groups pinned to CPU 1 for a 3 s window
// read the same CPU twelve times; the client used one CPU, not twelve.
// Before the fix the report said "client cpu 35.87 s" and 293 req per
// client cpu-s where the truth was about 1,170.
func TestClientCPUOverlap(t *testing.T) {
	const requests = 3500
	var groups []Group
	for i := range 12 {
		// Each group reads CPU 1 a few ms apart: 2.98 .. 3.00 s busy. The
		// workers' own time adds up to a bit less than the CPU's.
		groups = append(groups, pinnedGroup(i, "1", []int{1}, []float64{2.98 + 0.02*float64(i%2)}, 0.24, requests/12))
	}
	rep := NewRep(0, groups)
	c := rep.ClientCPU()
	if got, want := c.Seconds, 2.99; math.Abs(got-want) > 1e-9 {
		t.Errorf("CPU-set seconds %.4f, want %.4f (CPU 1 once, the mean of its readings)", got, want)
	}
	if got, want := c.Process, 12*0.24; math.Abs(got-want) > 1e-9 {
		t.Errorf("process seconds %.4f, want %.4f (the twelve workers summed)", got, want)
	}
	us, own, ok := c.PerRequest(rep.Total.Requests)
	if !ok || !own {
		t.Fatalf("PerRequest = %v, own %v, ok %v; want kaeload's own time", us, own, ok)
	}
	if got, want := us, 12*0.24*1e6/float64(rep.Total.Requests); math.Abs(got-want) > 1e-6 {
		t.Errorf("µs per request %.1f, want %.1f", got, want)
	}
	line := clientCPULine(c, rep.Total.Requests)
	if strings.Contains(line, "35.") || !strings.Contains(line, "2.99 s") {
		t.Errorf("client cpu line %q: want CPU 1 counted once (2.99 s)", line)
	}
}

// TestClientCPUPartialOverlap: groups on 0-1 and 1-2 count CPU 1 once; a
// group without per-CPU figures (an older run) counts once per CPU list;
// an unpinned group adds its own process time.
func TestClientCPUPartialOverlap(t *testing.T) {
	a := pinnedGroup(0, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
	b := pinnedGroup(1, "1-2", []int{1, 2}, []float64{2.2, 0.5}, -1, 100)
	rep := NewRep(0, []Group{a, b})
	c := rep.ClientCPU()
	if got, want := c.Seconds, 1+2.1+0.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("seconds %.3f, want %.3f", got, want)
	}
	if _, own, ok := c.PerRequest(200); !ok || own {
		t.Errorf("PerRequest own %v ok %v: want the CPUs' time (no process readings)", own, ok)
	}

	old := func(i int) Group {
		return Group{Index: i, CPUs: "4-5", CPU: &CPUUsage{CPUs: "4-5", Seconds: 5, Busy: 0.8}}
	}
	unpinned := Group{Index: 2, CPU: &CPUUsage{CPUs: "0-7", Seconds: 1.5}}
	// The same CPU list on another host is other CPUs.
	remote := pinnedGroup(3, "0-1", []int{0, 1}, []float64{1, 2}, -1, 100)
	remote.Host = "client2"
	rep = NewRep(0, []Group{a, remote})
	if got, want := rep.ClientCPU().Seconds, 3.0+3.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("two hosts: seconds %.3f, want %.3f", got, want)
	}

	rep = NewRep(0, []Group{old(0), old(1), unpinned})
	c = rep.ClientCPU()
	if got, want := c.Seconds, 5+1.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("older run: seconds %.3f, want %.3f", got, want)
	}
	if c.Measured != 3 || c.ProcessMeasured != 0 || c.BusyMax != 0.8 || c.BusyMaxGroup != 0 {
		t.Errorf("older run: %+v", c)
	}
}
