package analysis

import (
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

// SharedCPU is a pinned client group on the server's host that may run on
// some of its CPUs (Common).
type SharedCPU struct {
	Group  int    `json:"group"`
	CPUs   string `json:"cpus"`
	Common string `json:"common"`
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

// serverOtherLoadLine says that other processes took at least
// results.ServerOtherLoadShare of the server's CPUs; zero otherwise.
func serverOtherLoadLine(u ServerCPUUse) notes.Note {
	if !u.OtherLoad {
		return notes.Note{}
	}
	return notes.New(notes.ServerOtherLoad, "others", u.Others, "cpus", u.CPUs, "server", u.Server, "kaeload", u.Kaeload,
		"interrupts", u.Interrupts, "top", u.Top)
}

// sharedCPUsLine says that a pinned client group ran on some of the
// server's CPUs (in place of the client's OTHER LOAD); zero otherwise.
func sharedCPUsLine(u ServerCPUUse) notes.Note {
	if len(u.Shared) == 0 {
		return notes.Note{}
	}
	var shared []notes.Note
	for _, s := range u.Shared {
		shared = append(shared, notes.New(notes.SharedGroup, "group", s.Group, "cpus", s.CPUs, "common", s.Common))
	}
	return notes.New(notes.SharedCPUs, "shared", shared, "measured", u.Measured, "cpus", u.CPUs, "server", u.Server, "kaeload", u.Kaeload)
}

// Saturation is whether a repetition loaded the server: its CPUs busy, or
// kaeload's, or else the connections in flight set the rate (Little's law:
// connections / mean latency = rate).
type Saturation struct {
	// Judged is false without a server CPU reading or in an open loop.
	Judged bool
	// Server is the server tree's share of its CPUs.
	Server float64
	CPUs   string
	// CPUsBusy is the share anything ran on them, if HasCPUsBusy.
	CPUsBusy    float64
	HasCPUsBusy bool
	// Client short of CPU (bound, busiest group's busy time, other load):
	// the rate is then not the connections' alone.
	ClientBound     bool
	ClientBusy      float64
	HasClientBusy   bool
	ClientOtherLoad bool
	// Accelerator names a probe that moved: work done off the CPUs.
	Accelerator string
	// Connections in flight, their mean latency, LittleRate (their
	// quotient, req/s) and the measured Rate.
	Connections int
	MeanLatency time.Duration
	LittleRate  float64
	Rate        float64
	// OtherLoad on the server's CPUs: the window is OTHER LOAD instead.
	OtherLoad bool
	// NotSaturated: judged, nothing busy past results.ServerSaturatedBusy,
	// no flag, no accelerator, and LittleAgrees.
	NotSaturated bool
}

// saturation judges whether rep loaded the server, from ra's CPU figures.
func saturation(rep *results.Rep, ra *RepReport) Saturation {
	t := &rep.Total
	s := Saturation{Connections: t.Slots, Rate: t.Rate()}
	if h := t.Latency.Total; !results.EmptyHistogram(h) {
		s.MeanLatency = time.Duration(h.Mean() * float64(time.Microsecond))
		if s.MeanLatency > 0 {
			s.LittleRate = float64(s.Connections) / s.MeanLatency.Seconds()
		}
	}
	c := rep.ServerCPU
	if c == nil || t.Scheduled > 0 || t.Requests == 0 {
		return s
	}
	s.Judged = true
	s.Server, s.CPUs = c.Busy, c.CPUs
	if u := ra.ServerCPUs; u != nil && u.Measured {
		s.CPUsBusy, s.HasCPUsBusy = u.Busy, true
		s.OtherLoad = u.OtherLoad
	}
	s.ClientBound = len(ra.ClientBoundGroups) > 0
	if c := ra.ClientCPU; c.Measured > 0 {
		s.ClientBusy, s.HasClientBusy = c.BusyMax, true
	}
	s.ClientOtherLoad = len(ra.OtherLoadGroups) > 0
	for _, name := range slices.Sorted(maps.Keys(rep.Probes)) {
		if p := rep.Probes[name]; p.Error == "" && p.Delta() != 0 {
			s.Accelerator = name
			break
		}
	}
	busy := s.Server >= results.ServerSaturatedBusy || (s.HasCPUsBusy && s.CPUsBusy >= results.ServerSaturatedBusy) ||
		(s.HasClientBusy && s.ClientBusy >= results.ServerSaturatedBusy)
	s.NotSaturated = !busy && !s.OtherLoad && !s.ClientOtherLoad && !s.ClientBound && s.Accelerator == "" && s.LittleAgrees()
	return s
}

// LittleAgreement is how far LittleRate and Rate may differ (as a ratio):
// in a closed loop they agree within the time between requests, a few %.
const LittleAgreement = 0.25

// LittleAgrees: nothing but the requests' latency spaced them.
func (s Saturation) LittleAgrees() bool {
	return s.LittleRate > 0 && s.Rate > 0 && math.Abs(s.LittleRate/s.Rate-1) <= LittleAgreement
}

// notSaturatedLine says that the repetition did not load the server.
func notSaturatedLine(s Saturation, c ClientCPU) notes.Note {
	if !s.NotSaturated {
		return notes.Note{}
	}
	return notes.New(notes.NotSaturated, "server", s.Server, "cpus", s.CPUs, "has_cpus_busy", s.HasCPUsBusy, "cpus_busy", s.CPUsBusy,
		"has_client_busy", c.Measured > 0, "client_busy", c.BusyMax, "connections", s.Connections,
		"latency_us", float64(s.MeanLatency.Microseconds()), "little", s.LittleRate, "rate", s.Rate)
}

// serverSharedReason says how a repetition's server CPUs were shared:
// with a client group, or with other load (its busiest process).
func serverSharedReason(u ServerCPUUse) []notes.Note {
	var out []notes.Note
	for _, s := range u.Shared {
		out = append(out, notes.New(notes.ServerShare, "common", s.Common))
	}
	if u.OtherLoad {
		n := notes.New(notes.ServerBusiest, "cpus", u.CPUs)
		if len(u.Top) > 0 {
			n.Args["comm"], n.Args["pid"], n.Args["nice"] = u.Top[0].Comm, u.Top[0].PID, u.Top[0].Nice
		}
		out = append(out, n)
	}
	return out
}

// addServerCPUs counts a repetition's server-side verdicts into s.
func (s *VariantSummary) addServerCPUs(ra *RepReport) {
	if u := ra.ServerCPUs; u != nil {
		if u.OtherLoad {
			s.ServerOtherLoadReps++
		}
		if len(u.Shared) > 0 {
			s.SharedCPUReps++
		}
		if why := serverSharedReason(*u); len(why) > 0 {
			s.ServerSharedReps++
			s.ServerShared = s.ServerShared.AppendNew(why...)
		}
		if u.Measured && u.HasServer {
			s.serverOthers += u.Others
			s.serverOthersReps++
		}
	}
	if sat := ra.Saturation; sat.Judged {
		s.SaturationReps++
		if sat.NotSaturated {
			s.NotSaturatedReps++
		}
	}
}

// ServerSharedInMost: the server's CPUs were shared in most repetitions,
// so a verdict measured the server with what shared them.
func (s *VariantSummary) ServerSharedInMost() bool {
	return s.ServerSharedReps > 0 && 2*s.ServerSharedReps > s.Stats.N
}

// analyzeServerCPUs fills ra's server-side lines and figures for rep,
// after its client's.
func analyzeServerCPUs(rep *results.Rep, ra *RepReport) {
	if u, ok := RepServerCPUUse(rep); ok {
		ra.ServerCPUs = &u
		ra.ServerOtherLoad, ra.SharedCPUs = serverOtherLoadLine(u), sharedCPUsLine(u)
	}
	ra.Saturation = saturation(rep, ra)
	ra.NotSaturated = notSaturatedLine(ra.Saturation, ra.ClientCPU)
}

// ServerCPURates are v's requests per server CPU-second, one per
// repetition that read a positive server CPU time: what Variant.Rates is
// to Comparison, for ServerCPUComparison.
func ServerCPURates(v *results.Variant) []float64 {
	var out []float64
	for i := range v.Reps {
		rep := &v.Reps[i]
		if rep.ServerCPU != nil && rep.ServerCPU.Seconds > 0 {
			out = append(out, float64(rep.Total.Requests)/rep.ServerCPU.Seconds)
		}
	}
	return out
}

// compareServerCPU fills every variant's ServerCPUStats and
// ServerCPUComparison, in a Holm family of their own: they answer another
// question (what a request costs the server).
func compareServerCPU(r *results.Run, s *RunSummary) {
	rates := make([][]float64, len(r.Variants))
	for i := range r.Variants {
		rates[i] = ServerCPURates(&r.Variants[i])
		s.Variants[i].ServerCPUStats = stats.Summarize(rates[i])
	}
	for i, c := range compareWithBaseline(rates, s.Baseline, s.Equivalence) {
		s.Variants[i].ServerCPUComparison = c
	}
}
