package analysis

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
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
	byHostCPU := func(a, b hostCPU) int { return cmp.Or(strings.Compare(a.host, b.host), a.cpu-b.cpu) }
	for _, k := range slices.SortedFunc(maps.Keys(sum), byHostCPU) {
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

// groupFlags are the Group.Index of each group that matches, in plan
// order, and a note of code with their parts ("groups"); zero for none.
func groupFlags(gcs []GroupCPU, match func(GroupCPU) bool, code notes.Code, part func(GroupCPU) notes.Note) ([]int, notes.Note) {
	var idx []int
	var parts []notes.Note
	for _, gc := range gcs {
		if match(gc) {
			idx, parts = append(idx, gc.Index), append(parts, part(gc))
		}
	}
	return idx, joinedAs(code, "groups", parts)
}

// clientBoundPart is a client-bound group's note.
func clientBoundPart(gc GroupCPU) notes.Note {
	return notes.New(notes.ClientBoundGroup, "index", gc.Index, "cpus", gc.CPUs, "own", gc.Own,
		"busy", gc.Busy, "kaeload", gc.Kaeload, "interrupts", gc.Interrupts)
}

// otherLoadPart is an other-load group's note.
func otherLoadPart(gc GroupCPU) notes.Note {
	return notes.New(notes.OtherLoadGroup, "index", gc.Index, "cpus", gc.CPUs, "others", gc.Others, "kaeload", gc.Kaeload,
		"interrupts", gc.Interrupts, "wait", gc.Wait, "waited", gc.Waited, "top", gc.Top)
}

func isClientBound(gc GroupCPU) bool { return gc.ClientBound }
func isOtherLoad(gc GroupCPU) bool   { return gc.OtherLoad }

// clientBoundGroups is one note per client-bound group of r: "variant kae,
// repetition 2: kaeload used 97 % of group 1 (CPUs 4-7)".
func clientBoundGroups(r *results.Run, reps [][]RepReport) notes.List {
	var out notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for _, part := range reps[i][j].ClientBound.N("groups") {
				out = append(out, inRep(v, &v.Reps[j], part))
			}
		}
	}
	return out
}

// inRep is note as a run-wide line: "variant V, repetition N: note".
func inRep(v *results.Variant, rep *results.Rep, note notes.Note) notes.Note {
	return notes.New(notes.InRep, "variant", v.Name, "rep", rep.Index+1, "note", note)
}
