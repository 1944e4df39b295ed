package analysis

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// ClientCPU is the client's CPU use in a repetition: Measured, ProcessMeasured count the groups read on their
// CPUs, on their worker; Seconds is their CPUs' union busy (a shared CPU once), Process the workers' user+sys.
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
	switch {
	case requests == 0 || c.Groups == 0:
	case c.ProcessMeasured == c.Groups:
		return c.Process * 1e6 / float64(requests), true, true
	case c.Measured == c.Groups:
		return c.Seconds * 1e6 / float64(requests), false, true
	}
	return 0, false, false
}

// GroupCPU is a group's CPU use in a window, as shares: Kaeload its workers' (overlapping groups' by overlap;
// Busy unless Own), Others Busy's rest after Interrupts and Server; Waited in no verdict (nice 19 waits per wakeup).
type GroupCPU struct {
	Index                              int    // Group.Index
	CPUs                               string // "" = unpinned
	Busy, Kaeload                      float64
	Interrupts, Server, Others, Waited float64
	Top                                []results.ProcessCPU // the busiest other processes on the CPUs
	Own, Wait                          bool
	ClientBound, OtherLoad             bool // Kaeload+Interrupts ≥ ClientBoundBusy; Others ≥ OtherLoadShare
}

// RepGroupCPUs is each measured group's CPU use, in plan order; client-bound by kaeload's own time, not
// Busy (a nice 19 loop keeps a CPU busy, taking nothing).
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
					gc.Interrupts = interruptsOnce(g.CPU.IRQ/g.CPU.Seconds*gc.Busy, gc.Busy-k)
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

// interruptsOnce is CPUs' interrupt share irq, at most the busy share left beside the processes':
// a kernel without IRQ time accounting has the interrupts in the processes' time too.
func interruptsOnce(irq, left float64) float64 { return min(irq, 1, max(left, 0)) }

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

// SharedCPU is a pinned client group on the server's host that may run on its CPUs Common.
type SharedCPU struct {
	Group  int    `json:"group"`
	CPUs   string `json:"cpus"`
	Common string `json:"common"`
}

// ServerCPUUse is the server's CPUs' use in a window, as shares: Server its tree's (if HasServer), Kaeload the
// controller's and workers', Others Busy−Server−Kaeload−Interrupts (≥ 0), Top their busiest.
type ServerCPUUse struct {
	CPUs, Host                                string
	Measured, HasServer, OtherLoad            bool // OtherLoad: Others ≥ ServerOtherLoadShare
	Busy, Server, Kaeload, Interrupts, Others float64
	Top                                       []results.ProcessCPU
	Shared                                    []SharedCPU // client groups pinned to some of these CPUs
}

// RepServerCPUUse returns how the server's CPUs were used during r's window; false when not recorded.
func RepServerCPUUse(r *results.Rep) (ServerCPUUse, bool) {
	s := r.ServerCPUs
	if s == nil {
		return ServerCPUUse{}, false
	}
	cpus := cpuList(s.CPUs)
	u := ServerCPUUse{CPUs: s.CPUs, Host: s.Host, Top: s.Others}
	kaeload := s.Controller
	for _, g := range r.Groups {
		if g.Host != s.Host {
			continue
		}
		mine := cpuList(g.CPUs)
		if common := intersect(mine, cpus); !s.Builtin && len(common) > 0 {
			u.Shared = append(u.Shared, SharedCPU{Group: g.Index, CPUs: g.CPUs, Common: cpuString(common)})
		}
		if len(mine) == 0 && g.CPU != nil { // unpinned: the CPUs it measured itself on
			mine = cpuList(g.CPU.CPUs)
		}
		if g.Process != nil && len(mine) > 0 {
			kaeload += g.Process.Seconds * float64(len(intersect(mine, cpus))) / float64(len(mine))
		}
	}
	window := r.Total.Window.Length().Seconds()
	if s.Busy == nil || len(cpus) == 0 || window <= 0 {
		return u, true
	}
	capacity := window * float64(len(cpus))
	u.Measured, u.Busy = true, s.Busy.Busy
	u.Kaeload = min(kaeload/capacity, 1)
	if c := r.ServerCPU; c != nil {
		u.Server, u.HasServer = min(c.Seconds/capacity, 1), true
	}
	u.Interrupts = interruptsOnce(s.Busy.IRQ/capacity, u.Busy-u.Server-u.Kaeload)
	u.Others = max(u.Busy-u.Server-u.Kaeload-u.Interrupts, 0)
	u.OtherLoad = u.HasServer && u.Others >= results.ServerOtherLoadShare
	return u, true
}

// serverOnGroup is the share of g's CPU time the server took, and its PIDs (nil: none shared).
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
		b := a
		if isRange && err == nil {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b-a > 1<<16 {
			continue
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
	return slices.DeleteFunc(slices.Clone(a), func(c int) bool {
		_, ok := slices.BinarySearch(b, c)
		return !ok
	})
}

// cpuString writes sorted CPUs as a list with ranges ("0-2,5").
func cpuString(cpus []int) string {
	var parts []string
	for i, c := range cpus {
		after := i > 0 && cpus[i-1] == c-1
		switch {
		case after && i+1 < len(cpus) && cpus[i+1] == c+1: // inside a range
		case after:
			parts[len(parts)-1] += "-" + strconv.Itoa(c)
		default:
			parts = append(parts, strconv.Itoa(c))
		}
	}
	return strings.Join(parts, ",")
}

// Saturation is whether a repetition loaded the server: CPUs or kaeload's busy, or connections / mean
// latency = rate. The CPU figures it judges by are RepReport's.
type Saturation struct {
	Judged      bool   // false without a server CPU reading or in an open loop
	Accelerator string // a probe that moved: work done off the CPUs
	// The connections' mean latency, LittleRate (connections in flight / it, req/s), the measured Rate.
	MeanLatency      time.Duration
	LittleRate, Rate float64
	NotSaturated     bool // judged, nothing busy, no flag, no accelerator, LittleAgrees
}

// saturation sets ra.Saturation from ra's CPU figures, and ra.NotSaturated when judged (both zero before).
func saturation(rep *results.Rep, ra *RepReport) {
	t, s := &rep.Total, &ra.Saturation
	s.Rate = t.Rate()
	if h := t.Latency.Total; !results.EmptyHistogram(h) {
		s.MeanLatency = time.Duration(h.Mean() * float64(time.Microsecond))
		if s.MeanLatency > 0 {
			s.LittleRate = float64(t.Slots) / s.MeanLatency.Seconds()
		}
	}
	c := rep.ServerCPU
	if c == nil || t.Scheduled > 0 || t.Requests == 0 {
		return
	}
	s.Judged = true
	for _, name := range slices.Sorted(maps.Keys(rep.Probes)) {
		if p := rep.Probes[name]; p.Error == "" && p.Delta() != 0 {
			s.Accelerator = name
			break
		}
	}
	cpusBusy, hasCPUsBusy := ra.ServerCPUsBusy()
	busy := max(c.Busy, cpusBusy, ra.ClientCPU.BusyMax) >= results.ServerSaturatedBusy // 0 where not measured
	// Other load either side, or a client short of CPU: the rate is then not the connections' alone.
	flagged := !ra.ServerOtherLoad.IsZero() || !ra.OtherLoad.IsZero() || !ra.ClientBound.IsZero()
	s.NotSaturated = !busy && !flagged && s.Accelerator == "" && s.LittleAgrees()
	ra.NotSaturated = noteIf(s.NotSaturated, notes.NotSaturated, "server", c.Busy, "cpus", c.CPUs,
		"has_cpus_busy", hasCPUsBusy, "cpus_busy", cpusBusy, "has_client_busy", ra.ClientCPU.Measured > 0,
		"client_busy", ra.ClientCPU.BusyMax, "connections", t.Slots,
		"latency_us", float64(s.MeanLatency.Microseconds()), "little", s.LittleRate, "rate", s.Rate)
}

// ServerCPUsBusy is the share anything ran on the server's CPUs; false when not measured.
func (ra *RepReport) ServerCPUsBusy() (float64, bool) {
	if u := ra.ServerCPUs; u != nil && u.Measured {
		return u.Busy, true
	}
	return 0, false
}

// LittleAgreement is how far LittleRate/Rate may be from 1: a closed loop agrees within the time between requests.
const LittleAgreement = 0.25

// LittleAgrees reports whether nothing but the requests' latency spaced them.
func (s Saturation) LittleAgrees() bool {
	return s.LittleRate > 0 && s.Rate > 0 && math.Abs(s.LittleRate/s.Rate-1) <= LittleAgreement
}

// ServerCPURates are v's requests per server CPU-second, one per repetition that read it.
func ServerCPURates(v *results.Variant) []float64 {
	var out []float64
	for _, rep := range v.Reps {
		if rep.ServerCPU != nil && rep.ServerCPU.Seconds > 0 {
			out = append(out, float64(rep.Total.Requests)/rep.ServerCPU.Seconds)
		}
	}
	return out
}
