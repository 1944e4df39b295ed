package analysis

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// ClientCPU is the client's CPU use in one repetition, its groups together:
// a CPU several groups share counts once.
type ClientCPU struct {
	// Groups is the number of groups; Measured those with a reading of
	// their CPUs, ProcessMeasured of their worker process.
	Groups, Measured, ProcessMeasured int
	// Seconds is the busy time of the union of the measured groups' CPUs;
	// an unpinned group adds its own process time.
	Seconds float64
	// Process is the workers' user + system time.
	Process float64
	// BusyMax is the highest Group.CPU.Busy (of group BusyMaxGroup),
	// BusyMean the mean; 0 when none is measured.
	BusyMax      float64
	BusyMaxGroup int
	BusyMean     float64
}

// RepClientCPU returns the client CPU use of r's groups: each CPU of each
// host once (the mean of the groups' readings), or for older runs without
// per-CPU figures each distinct CPU list once.
func RepClientCPU(r *results.Rep) ClientCPU {
	c := ClientCPU{Groups: len(r.Groups)}
	type hostCPU struct {
		host string
		cpu  int
	}
	sum, n := map[hostCPU]float64{}, map[hostCPU]int{}
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
		c.BusyMean += u.Busy
		switch {
		case g.CPUs == "":
			c.Seconds += u.Seconds // an unpinned worker measures itself
		case len(u.PerCPU) > 0:
			for _, t := range u.PerCPU {
				sum[hostCPU{g.Host, t.CPU}] += t.Seconds
				n[hostCPU{g.Host, t.CPU}]++
			}
		case !lists[g.Host+"\x00"+u.CPUs]:
			lists[g.Host+"\x00"+u.CPUs] = true
			c.Seconds += u.Seconds
		}
	}
	if c.Measured > 0 {
		c.BusyMean /= float64(c.Measured)
	}
	keys := slices.SortedFunc(maps.Keys(sum), func(a, b hostCPU) int {
		if a.host != b.host {
			return strings.Compare(a.host, b.host)
		}
		return a.cpu - b.cpu
	})
	for _, k := range keys {
		c.Seconds += sum[k] / float64(n[k])
	}
	return c
}

// PerRequest is the client's CPU µs per request: kaeload's own time when
// every group measured it (own), else its CPUs' busy time; false when
// neither was measured by every group, or without requests.
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

// GroupCPU is how one group's CPUs were used during a window, as shares
// of their time (window × CPUs), with the verdicts that follow.
type GroupCPU struct {
	// Index is Group.Index; CPUs its CPU list ("" = unpinned).
	Index int
	CPUs  string
	// Busy is the share anything ran on the CPUs.
	Busy float64
	// Kaeload is the share kaeload's workers used there (overlapping
	// groups' by overlap); Own says whether measured, else it is Busy.
	Kaeload float64
	Own     bool
	// Interrupts is the kernel's network work for kaeload (CPUUsage.IRQ).
	Interrupts float64
	// Others is Busy − Kaeload − Interrupts − Server (at least 0).
	Others float64
	// Server is the measured server's share where it shares the CPUs.
	Server float64
	// Waited is how long the group's threads waited for a CPU, in seconds
	// summed over threads; Wait says whether it was measured. No part of
	// the verdict: a nice 19 loop adds a wait at nearly every wakeup.
	Waited float64
	Wait   bool
	// Top names the busiest other processes on the CPUs.
	Top []results.ProcessCPU
	// ClientBound: Kaeload + Interrupts reached results.ClientBoundBusy;
	// OtherLoad: Others reached results.OtherLoadShare.
	ClientBound, OtherLoad bool
}

// RepGroupCPUs returns how each measured group of r used its CPUs, in plan
// order. Client-bound rests on kaeload's own time, not on busy time: a
// nice 19 loop keeps a CPU busy without taking anything kaeload asks for.
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

// kaeloadShare is the share of group i's CPU time the run's workers used
// (other groups' on the host by the CPUs they share); false when group
// i's worker did not measure itself.
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
	for j := range r.Groups {
		h := &r.Groups[j]
		if j == i || h.Host != g.Host || h.Process == nil || h.CPU == nil || len(h.CPU.PerCPU) == 0 {
			continue
		}
		shared := 0
		for _, t := range h.CPU.PerCPU {
			if mine[t.CPU] {
				shared++
			}
		}
		used += h.Process.Busy * float64(shared)
	}
	return min(used/float64(len(mine)), 1), true
}

// SharedCPU is a pinned client group on the server's host that may run on
// some of its CPUs (Common).
type SharedCPU struct {
	Group        int
	CPUs, Common string
}

// ServerCPUUse is how the server's CPUs were used during a window, as
// shares of their time, and who shared them.
type ServerCPUUse struct {
	CPUs, Host string
	// Measured says whether their busy time was read (else shares are 0).
	Measured bool
	Busy     float64
	// Server is the server's process tree's share, if HasServer.
	Server    float64
	HasServer bool
	// Kaeload is the controller's time and its workers' on these CPUs.
	Kaeload    float64
	Interrupts float64
	// Others is Busy − Server − Kaeload − Interrupts (at least 0); Top
	// names the busiest of them.
	Others float64
	Top    []results.ProcessCPU
	// OtherLoad: Others reached results.ServerOtherLoadShare.
	OtherLoad bool
	// Shared are the client groups pinned to some of these CPUs.
	Shared []SharedCPU
}

// RepServerCPUUse returns how the server's CPUs were used during r's
// window; false when they were not recorded (Rep.ServerCPUs nil).
func RepServerCPUUse(r *results.Rep) (ServerCPUUse, bool) {
	s := r.ServerCPUs
	if s == nil {
		return ServerCPUUse{}, false
	}
	cpus := cpuList(s.CPUs)
	u := ServerCPUUse{CPUs: s.CPUs, Host: s.Host, Top: s.Others}
	for i := range r.Groups {
		g := &r.Groups[i]
		if s.Builtin || g.Host != s.Host || g.CPUs == "" {
			continue
		}
		if common := intersect(cpuList(g.CPUs), cpus); len(common) > 0 {
			u.Shared = append(u.Shared, SharedCPU{Group: g.Index, CPUs: g.CPUs, Common: cpuString(common)})
		}
	}
	window := r.Total.Window.Length().Seconds()
	if s.Busy == nil || len(cpus) == 0 || window <= 0 {
		return u, true
	}
	capacity := window * float64(len(cpus))
	u.Measured = true
	u.Busy = s.Busy.Busy
	u.Interrupts = min(s.Busy.IRQ/capacity, 1)
	if c := r.ServerCPU; c != nil {
		u.Server, u.HasServer = min(c.Seconds/capacity, 1), true
	}
	kaeload := s.Controller
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.Host != s.Host || g.Process == nil {
			continue
		}
		mine := cpuList(g.CPUs)
		if len(mine) == 0 && g.CPU != nil { // unpinned: the CPUs it measured itself on
			mine = cpuList(g.CPU.CPUs)
		}
		if len(mine) > 0 {
			kaeload += g.Process.Seconds * float64(len(intersect(mine, cpus))) / float64(len(mine))
		}
	}
	u.Kaeload = min(kaeload/capacity, 1)
	u.Others = max(u.Busy-u.Server-u.Kaeload-u.Interrupts, 0)
	u.OtherLoad = u.HasServer && u.Others >= results.ServerOtherLoadShare
	return u, true
}

// serverOnGroup is the share of g's CPU time the server took (its time
// spread evenly over its CPUs) and its PIDs; nil PIDs when none shared.
func serverOnGroup(r *results.Rep, g *results.Group) (float64, []int) {
	s, c := r.ServerCPUs, r.ServerCPU
	if s == nil || g.CPUs == "" || g.Host != s.Host || g.CPU == nil {
		return 0, nil
	}
	server, mine := cpuList(s.CPUs), cpuList(g.CPUs)
	common := intersect(mine, server)
	if len(common) == 0 {
		return 0, nil
	}
	window := r.Total.Window.Length().Seconds()
	if c == nil || window <= 0 {
		return 0, s.PIDs
	}
	on := c.Seconds * float64(len(common)) / float64(len(server))
	return min(on/(window*float64(len(mine))), 1), s.PIDs
}

// cpuList parses "0-3,8" into sorted CPUs, skipping what does not parse.
func cpuList(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<16 {
				continue
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// intersect returns the CPUs of a that the sorted b holds.
func intersect(a, b []int) []int {
	var out []int
	for _, c := range a {
		if _, ok := slices.BinarySearch(b, c); ok {
			out = append(out, c)
		}
	}
	return out
}

// cpuString writes sorted CPUs as a list with ranges ("0-2,5").
func cpuString(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
