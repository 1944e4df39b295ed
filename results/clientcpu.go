package results

import (
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
	// group's Index; BusyMean is the mean Busy of the measured groups.
	// All three are 0 when Measured is 0.
	BusyMax      float64
	BusyMaxGroup int
	BusyMean     float64
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
		c.BusyMean += u.Busy
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
	if c.Measured > 0 {
		c.BusyMean /= float64(c.Measured)
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

// OtherLoadShare is the share of a group's CPU time that processes other
// than kaeload's workers (other programs, a server pinned beside the
// group, interrupts) must take for a report to warn about it
// (GroupCPU.OtherLoad).
const OtherLoadShare = 0.25

// GroupCPU is how one group's CPUs were used during a repetition's
// window, as shares of their time (window × CPUs), with the verdicts
// that follow (Rep.GroupCPUs).
type GroupCPU struct {
	// Index is the group's Group.Index and CPUs its CPU list ("" =
	// unpinned).
	Index int
	CPUs  string
	// Busy is the share of the CPUs' time that anything ran on them.
	Busy float64
	// Kaeload is the share kaeload itself used: the worker processes'
	// own CPU time on these CPUs (this group's, and that of other groups
	// on the same host pinned to some of the same CPUs, in proportion to
	// the overlap). Own says whether it was measured; when not (a run
	// recorded before workers measured themselves) Kaeload is Busy.
	Kaeload float64
	Own     bool
	// Interrupts is the share the CPUs spent handling interrupts
	// (CPUUsage.IRQ): the kernel's network work for the connections on
	// them, which no process's time includes (5-10 % of a CPU at
	// 1,000-3,000 handshakes/s on loopback). It counts on kaeload's side:
	// a busy loop makes none.
	Interrupts float64
	// Others is Busy − Kaeload − Interrupts − Server (at least 0): the
	// share other processes took. 0 for an unpinned group, whose CPUs are
	// not measured apart from its process.
	Others float64
	// Server is the share the server being measured took when the group
	// runs on some of its CPUs (Rep.ServerCPUs, ServerCPUUse.Shared): its
	// time spread evenly over its CPUs, the part on the group's. The
	// server is then no other load but a CPU shared, said as such.
	Server float64
	// Waited is how long the group's worker threads were ready to run
	// but waited for a CPU, in seconds, summed over its threads (the Go
	// runtime's housekeeping thread included), and WaitShare that time
	// over the CPUs' time (at most 1); Wait says whether it was
	// measured. It is no part of the client-bound verdict: the sum over
	// threads overstates, and a busy loop at nice 19 adds a wait at
	// nearly every wakeup (the kernel lets it finish its time slice),
	// which grows with the connections: measured 0.4-1.3 s per second
	// against a server-bound run while kaeload used 0.06-0.3 s.
	Waited, WaitShare float64
	Wait              bool
	// Top names the busiest other processes that may run on the CPUs
	// (Group.Others).
	Top []ProcessCPU
	// ClientBound: kaeload itself used at least ClientBoundBusy of the
	// CPUs' time (Kaeload + Interrupts), so the figure measures kaeload.
	ClientBound bool
	// OtherLoad: other processes took at least OtherLoadShare of it.
	OtherLoad bool
}

// GroupCPUs returns, in plan order, how each group of r whose CPUs were
// measured (Group.CPU) used them. Client-bound rests on kaeload's own
// time, never on the CPUs' busy time alone: a busy loop at nice 19 keeps
// a CPU 100 % busy without taking anything kaeload asks for.
func (r *Rep) GroupCPUs() []GroupCPU {
	var out []GroupCPU
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.CPU == nil {
			continue
		}
		gc := GroupCPU{Index: g.Index, CPUs: g.CPUs, Busy: g.CPU.Busy, Kaeload: g.CPU.Busy, Top: g.Others}
		if k, ok := r.kaeloadShare(i); ok {
			gc.Kaeload, gc.Own = k, true
			if g.CPUs != "" {
				if g.CPU.Seconds > 0 {
					gc.Interrupts = min(g.CPU.IRQ/g.CPU.Seconds, 1) * gc.Busy
				}
				gc.Others = max(gc.Busy-k-gc.Interrupts, 0)
				if on, pids := r.serverOnGroup(g); pids != nil {
					gc.Server = min(on, gc.Others)
					gc.Others -= gc.Server
					gc.Top = slices.DeleteFunc(slices.Clone(gc.Top), func(p ProcessCPU) bool { return slices.Contains(pids, p.PID) })
				}
			}
		}
		if g.Wait != nil {
			gc.Waited, gc.WaitShare, gc.Wait = g.Wait.Seconds, min(g.Wait.Busy, 1), true
		}
		gc.ClientBound = gc.Kaeload+gc.Interrupts >= ClientBoundBusy
		gc.OtherLoad = gc.Own && gc.Others >= OtherLoadShare
		out = append(out, gc)
	}
	return out
}

// kaeloadShare is the share of group i's CPU time that the run's worker
// processes used: its own worker's share (Process.Busy) plus, for every
// other group on the same host, that worker's CPU time in proportion to
// the CPUs it shares with group i (known from the groups' per-CPU
// readings). false when group i's worker did not measure itself.
func (r *Rep) kaeloadShare(i int) (float64, bool) {
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
	// In CPUs' worth: a worker's Busy is over its own CPUs.
	used := g.Process.Busy * float64(len(mine))
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
