package measure

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"math"
	"strings"
	"testing"
)

// TestClientCPUOverlap: twelve groups pinned to CPU 1 for a 3 s window
// read the same CPU twelve times; the client used one CPU, not twelve.
// Before the fix the report said "client cpu 35.87 s" and 293 req per
// client cpu-s where the truth was about 1,170.
func TestClientCPUOverlap(t *testing.T) {
	const requests = 3500
	var groups []results.Group
	for i := range 12 {
		// Each group reads CPU 1 a few ms apart: 2.98 .. 3.00 s busy. The
		// workers' own time adds up to a bit less than the CPU's.
		s := 2.98 + 0.02*float64(i%2)
		groups = append(groups, results.Group{Index: i, CPUs: "1", Counts: results.Counts{Requests: requests / 12},
			CPU:     &results.CPUUsage{CPUs: "1", PerCPU: []results.CPUTime{{CPU: 1, Seconds: s}}, Seconds: s, Busy: s / 3},
			Process: &results.CPUUsage{Seconds: 0.24}})
	}
	rep := results.NewRep(0, groups)
	c := analysis.RepClientCPU(&rep)
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
	line := clientCPULine(&Rep{Rep: &rep, A: &analysis.RepReport{ClientCPU: c}})
	if strings.Contains(line, "35.") || !strings.Contains(line, "2.99 s") {
		t.Errorf("client cpu line %q: want CPU 1 counted once (2.99 s)", line)
	}
}
