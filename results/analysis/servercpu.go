package analysis

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ServerOtherLoadLine says that other processes took at least
// results.ServerOtherLoadShare of the server's CPUs; zero otherwise.
func ServerOtherLoadLine(rep *results.Rep) notes.Note {
	u, ok := RepServerCPUUse(rep)
	if !ok || !u.OtherLoad {
		return notes.Note{}
	}
	return notes.New(notes.ServerOtherLoad, "others", u.Others, "cpus", u.CPUs, "server", u.Server, "kaeload", u.Kaeload,
		"interrupts", u.Interrupts, "top", u.Top)
}

// SharedCPUsLine says that a pinned client group ran on some of the
// server's CPUs (in place of the client's OTHER LOAD); zero otherwise.
func SharedCPUsLine(rep *results.Rep) notes.Note {
	u, ok := RepServerCPUUse(rep)
	if !ok || len(u.Shared) == 0 {
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

// RepSaturation judges whether rep loaded the server.
func RepSaturation(rep *results.Rep) Saturation {
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
	if u, ok := RepServerCPUUse(rep); ok && u.Measured {
		s.CPUsBusy, s.HasCPUsBusy = u.Busy, true
		s.OtherLoad = u.OtherLoad
	}
	s.ClientBound = len(ClientBound(rep)) > 0
	if c := RepClientCPU(rep); c.Measured > 0 {
		s.ClientBusy, s.HasClientBusy = c.BusyMax, true
	}
	s.ClientOtherLoad = len(OtherLoad(rep)) > 0
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

// NotSaturatedLine says that rep did not load the server; zero otherwise.
func NotSaturatedLine(rep *results.Rep) notes.Note {
	s := RepSaturation(rep)
	if !s.NotSaturated {
		return notes.Note{}
	}
	c := RepClientCPU(rep)
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

// addServerCPUs counts rep's server-side verdicts into s.
func (s *VariantSummary) addServerCPUs(rep *results.Rep) {
	if u, ok := RepServerCPUUse(rep); ok {
		if u.OtherLoad {
			s.ServerOtherLoadReps++
		}
		if len(u.Shared) > 0 {
			s.SharedCPUReps++
		}
		if why := serverSharedReason(u); len(why) > 0 {
			s.ServerSharedReps++
			s.ServerShared = s.ServerShared.AppendNew(why...)
		}
	}
	if sat := RepSaturation(rep); sat.Judged {
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

// serverWarnings are the server-side warnings of r's repetitions.
func serverWarnings(r *results.Run) []string {
	ws := repWarnings(r, ServerOtherLoadLine)
	ws = appendNew(ws, repWarnings(r, SharedCPUsLine)...)
	return appendNew(ws, repWarnings(r, NotSaturatedLine)...)
}

// analyzeServerCPUs fills ra's server-side lines and figures for rep.
func analyzeServerCPUs(rep *results.Rep, ra *RepReport) {
	ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated = ServerOtherLoadLine(rep), SharedCPUsLine(rep), NotSaturatedLine(rep)
	if u, ok := RepServerCPUUse(rep); ok {
		ra.ServerCPUs = &u
	}
	ra.Saturation = RepSaturation(rep)
}
