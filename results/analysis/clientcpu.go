package analysis

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
)

// ClientCPU is the client's CPU use in one repetition, its groups together: a CPU
// several groups share counts once. Measured and ProcessMeasured count the groups with a
// reading of their CPUs and of their worker process; Seconds is the busy time of the union
// of their CPUs (an unpinned group adds its own), Process the workers' user + system.
type ClientCPU struct {
	Groups, Measured, ProcessMeasured int
	Seconds, Process                  float64
	BusyMax, BusyMean                 float64 // of Group.CPU.Busy; 0 when none is measured
	BusyMaxGroup                      int
}

// RepClientCPU counts each CPU of each host once (the mean of the groups' readings), or each CPU list.
func RepClientCPU(r *results.Rep) ClientCPU {
	c := ClientCPU{Groups: len(r.Groups)}
	type hostCPU struct {
		host string
		cpu  int
	}
	perCPU, lists := map[hostCPU][]float64{}, map[[2]string]bool{}
	for _, g := range r.Groups {
		if p := g.Process; p != nil {
			c.ProcessMeasured, c.Process = c.ProcessMeasured+1, c.Process+p.Seconds
		}
		u := g.CPU
		if u == nil {
			continue
		}
		if c.Measured == 0 || u.Busy > c.BusyMax {
			c.BusyMax, c.BusyMaxGroup = u.Busy, g.Index
		}
		c.Measured, c.BusyMean = c.Measured+1, c.BusyMean+u.Busy
		switch {
		case g.CPUs == "":
			c.Seconds += u.Seconds // an unpinned worker measures itself
		case len(u.PerCPU) > 0:
			for _, t := range u.PerCPU {
				perCPU[hostCPU{g.Host, t.CPU}] = append(perCPU[hostCPU{g.Host, t.CPU}], t.Seconds)
			}
		case !lists[[2]string{g.Host, u.CPUs}]:
			lists[[2]string{g.Host, u.CPUs}] = true
			c.Seconds += u.Seconds
		}
	}
	c.BusyMean /= float64(max(c.Measured, 1))
	byHostCPU := func(a, b hostCPU) int { return cmp.Or(strings.Compare(a.host, b.host), a.cpu-b.cpu) }
	for _, k := range slices.SortedFunc(maps.Keys(perCPU), byHostCPU) {
		mean, _ := stats.MeanStdDev(perCPU[k]) // the groups' readings of one CPU
		c.Seconds += mean
	}
	return c
}

// PerRequest is the client's CPU µs per request: kaeload's own time if every group measured it, else busy.
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

// GroupCPU is how one group's CPUs were used during a window, as shares of their time
// (window × CPUs). Kaeload is its workers' share (overlapping groups' by overlap; Busy unless
// Own measured it), Interrupts the kernel's network work for kaeload, Server the measured
// server's share, Others the rest of Busy (at least 0). Waited, the seconds its threads waited
// for a CPU, is no part of a verdict: a nice 19 loop adds a wait at nearly every wakeup.
type GroupCPU struct {
	Index                      int    // Group.Index
	CPUs                       string // "" = unpinned
	Busy, Kaeload              float64
	Own                        bool
	Interrupts, Server, Others float64
	Waited                     float64
	Wait                       bool
	Top                        []results.ProcessCPU // the busiest other processes on the CPUs
	// ClientBound: Kaeload + Interrupts reached ClientBoundBusy; OtherLoad: Others reached OtherLoadShare.
	ClientBound, OtherLoad bool
}

// RepGroupCPUs returns how each measured group of r used its CPUs, in plan order. Client-bound
// rests on kaeload's own time: a nice 19 loop keeps a CPU busy without taking anything from it.
func RepGroupCPUs(r *results.Rep) []GroupCPU {
	var out []GroupCPU
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.CPU == nil {
			continue
		}
		gc := GroupCPU{Index: g.Index, CPUs: g.CPUs, Busy: g.CPU.Busy, Kaeload: g.CPU.Busy, Top: g.Others}
		if k, ok := kaeloadShare(r, i); ok {
			gc.Kaeload, gc.Own = k, true
			if g.CPUs != "" {
				if g.CPU.Seconds > 0 {
					gc.Interrupts = min(g.CPU.IRQ/g.CPU.Seconds, 1) * gc.Busy
				}
				gc.Others = max(gc.Busy-k-gc.Interrupts, 0)
				if on, pids := serverOnGroup(r, g); pids != nil {
					gc.Server = min(on, gc.Others)
					gc.Others -= gc.Server
					gc.Top = slices.DeleteFunc(slices.Clone(gc.Top), func(p results.ProcessCPU) bool { return slices.Contains(pids, p.PID) })
				}
			}
		}
		if g.Wait != nil {
			gc.Waited, gc.Wait = g.Wait.Seconds, true
		}
		gc.ClientBound = gc.Kaeload+gc.Interrupts >= results.ClientBoundBusy
		gc.OtherLoad = gc.Own && gc.Others >= results.OtherLoadShare
		out = append(out, gc)
	}
	return out
}

// kaeloadShare is the share of group i's CPU time the workers used (others' by the CPUs they share).
func kaeloadShare(r *results.Rep, i int) (float64, bool) {
	g := &r.Groups[i]
	if g.Process == nil {
		return 0, false
	}
	if g.CPUs == "" || len(g.CPU.PerCPU) == 0 {
		return g.Process.Busy, true
	}
	mine := map[int]bool{}
	for _, t := range g.CPU.PerCPU {
		mine[t.CPU] = true
	}
	used := g.Process.Busy * float64(len(mine)) // in CPUs' worth
	for j, h := range r.Groups {
		if j != i && h.Host == g.Host && h.Process != nil && h.CPU != nil && len(h.CPU.PerCPU) > 0 {
			shared := 0
			for _, t := range h.CPU.PerCPU {
				shared += b2i(mine[t.CPU])
			}
			used += h.Process.Busy * float64(shared)
		}
	}
	return min(used/float64(len(mine)), 1), true
}
