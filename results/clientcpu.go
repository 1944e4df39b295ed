package results

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ClientCPU is the client's CPU use in one repetition, its groups taken
// together. Groups may share CPUs (twelve groups pinned to CPU 1): a CPU
// is then counted once, not once per group, and kaeload's own time is
// the sum of its worker processes', which never overlap.
type ClientCPU struct {
	// Groups is the number of groups; Measured those with a reading of
	// their CPUs (Group.CPU), ProcessMeasured those with a reading of
	// their worker process (Group.Process).
	Groups, Measured, ProcessMeasured int
	// Seconds is the busy time of the union of the measured groups' CPUs
	// over the window (anything running there: kaeload, a server pinned
	// beside it, other processes), each CPU counted once. An unpinned
	// group adds its own process time.
	Seconds float64
	// Process is kaeload's own CPU time: the measured worker processes'
	// user + system time over the window, summed.
	Process float64
	// BusyMax is the highest Group.CPU.Busy, and BusyMaxGroup that
	// group's Index.
	BusyMax      float64
	BusyMaxGroup int
}

// ClientCPU returns the client CPU use of r's groups.
//
// Groups measured CPU by CPU (CPUUsage.PerCPU) count each CPU of each
// host (Group.Host) once, with
// the mean of the groups' readings of it (they read the same counters
// over the same window, a few milliseconds apart). A group without per-CPU
// figures (a run recorded before they existed) counts once per distinct
// CPU list; lists that only partly overlap are then counted in full.
func (r *Rep) ClientCPU() ClientCPU {
	c := ClientCPU{Groups: len(r.Groups)}
	type acc struct {
		sum float64
		n   int
	}
	// CPUs are per machine: CPU 1 of two hosts are two CPUs.
	type hostCPU struct {
		host string
		cpu  int
	}
	perCPU := map[hostCPU]*acc{}
	lists := map[string]bool{}
	for i := range r.Groups {
		g := &r.Groups[i]
		if p := g.Process; p != nil {
			c.ProcessMeasured++
			c.Process += p.Seconds
		}
		u := g.CPU
		if u == nil {
			continue
		}
		if c.Measured == 0 || u.Busy > c.BusyMax {
			c.BusyMax, c.BusyMaxGroup = u.Busy, g.Index
		}
		c.Measured++
		switch {
		case g.CPUs == "":
			c.Seconds += u.Seconds // an unpinned worker measures itself
		case len(u.PerCPU) > 0:
			for _, t := range u.PerCPU {
				k := hostCPU{g.Host, t.CPU}
				a := perCPU[k]
				if a == nil {
					a = &acc{}
					perCPU[k] = a
				}
				a.sum += t.Seconds
				a.n++
			}
		case !lists[g.Host+"\x00"+u.CPUs]:
			lists[g.Host+"\x00"+u.CPUs] = true
			c.Seconds += u.Seconds
		}
	}
	keys := slices.SortedFunc(maps.Keys(perCPU), func(a, b hostCPU) int {
		if a.host != b.host {
			return strings.Compare(a.host, b.host)
		}
		return a.cpu - b.cpu
	})
	for _, k := range keys {
		a := perCPU[k]
		c.Seconds += a.sum / float64(a.n)
	}
	return c
}

// PerRequest returns the client's CPU time per request in microseconds:
// kaeload's own time (Process) when every group measured it, otherwise
// the busy time of the groups' CPUs when every group measured that;
// false when neither was measured for every group, or there were no
// requests. own says which of the two it is.
func (c ClientCPU) PerRequest(requests uint64) (us float64, own, ok bool) {
	if requests == 0 || c.Groups == 0 {
		return 0, false, false
	}
	switch {
	case c.ProcessMeasured == c.Groups:
		return c.Process * 1e6 / float64(requests), true, true
	case c.Measured == c.Groups:
		return c.Seconds * 1e6 / float64(requests), false, true
	}
	return 0, false, false
}

// FormatMicros renders a per-request CPU time in microseconds: "228",
// "12.5", "0.84".
func FormatMicros(us float64) string {
	switch {
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	case us >= 10:
		return fmt.Sprintf("%.1f", us)
	}
	return fmt.Sprintf("%.2f", us)
}
