package analysis

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ServerOtherLoadLine is the line for a repetition in which other
// processes took at least results.ServerOtherLoadShare of the server's
// CPUs, naming the busiest; zero when none did or it was not measured.
func ServerOtherLoadLine(rep *results.Rep) notes.Note {
	u, ok := RepServerCPUUse(rep)
	if !ok || !u.OtherLoad {
		return notes.Note{}
	}
	return notes.New(notes.ServerOtherLoad, "others", u.Others, "cpus", u.CPUs, "server", u.Server, "kaeload", u.Kaeload,
		"interrupts", u.Interrupts, "top", u.Top)
}

// SharedCPUsLine is the line for a repetition in which a pinned client
// group ran on some of the server's CPUs on its host; zero when none
// did. It is said in place of the client's OTHER LOAD, which then leaves
// the server out (GroupCPU.Server).
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

// Saturation is whether a repetition loaded the server: the server's
// CPUs busy, or kaeload's, or else the rate set by the connections in
// flight (Little's law: connections / mean latency = rate).
type Saturation struct {
	// Judged is false when the server's CPU was not measured or the load
	// was an open loop (the schedule set the rate).
	Judged bool
	// Server is the share of its CPUs (CPUs) the server's tree used.
	Server float64
	CPUs   string
	// CPUsBusy is the share of those CPUs' time anything ran on them;
	// HasCPUsBusy says whether it was read (ServerCPUUse.Measured).
	CPUsBusy    float64
	HasCPUsBusy bool
	// ClientBound: a group was client-bound (ClientBound).
	ClientBound bool
	// ClientBusy is the busy time of the busiest group's CPUs
	// (ClientCPU.BusyMax); HasClientBusy says whether one was read.
	// ClientOtherLoad: other processes took a large share of a group's
	// CPUs. Either way the client was short of CPU, and the rate is not
	// said to be the connections' alone.
	ClientBusy      float64
	HasClientBusy   bool
	ClientOtherLoad bool
	// Accelerator names a probe that moved in the window: an accelerator
	// does the server's work off its CPUs.
	Accelerator string
	// Connections is the number of connections in flight (the groups'
	// slots), MeanLatency the mean total latency of the window's
	// requests, LittleRate Connections / MeanLatency in req/s and Rate
	// the measured rate.
	Connections int
	MeanLatency time.Duration
	LittleRate  float64
	Rate        float64
	// OtherLoad: other processes took a large share of the server's
	// CPUs; the window is then OTHER LOAD, not NOT SATURATED.
	OtherLoad bool
	// NotSaturated: judged, the server's CPUs and the busiest group's
	// under results.ServerSaturatedBusy, no flag on either side, no
	// accelerator at work, and Little's law holding (LittleAgrees).
	NotSaturated bool
}

// RepSaturation judges whether rep loaded the server (Saturation), from
// the server's CPU time and its CPUs' busy time, read every window.
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

// LittleAgreement is how far apart Connections / MeanLatency and the
// measured rate may be (as a ratio) for NotSaturated to say that the
// connections in flight set the rate: in a closed loop each connection
// slot starts its next request as soon as the last one ends, so they
// agree within the time between requests, a few per cent.
const LittleAgreement = 0.25

// LittleAgrees reports whether LittleRate and Rate agree within
// LittleAgreement: the loop was closed and nothing but the requests'
// latency spaced them.
func (s Saturation) LittleAgrees() bool {
	return s.LittleRate > 0 && s.Rate > 0 && math.Abs(s.LittleRate/s.Rate-1) <= LittleAgreement
}

// NotSaturatedLine is the line for a repetition that did not load the
// server (Saturation.NotSaturated); zero otherwise.
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

// serverSharedReason are the reasons a variant's notes give for a
// repetition whose server CPUs were shared: "client and server share CPU
// 0", "OTHER LOAD on the server's CPU 0, busiest sh (pid 5151, nice 10)".
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

// addServerCPUs counts rep's server-side verdicts into s
// (VariantSummary.ServerSharedReps and the fields beside it).
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

// ServerSharedInMost reports whether the server's CPUs were shared
// (ServerSharedReps) in most of the variant's repetitions: a verdict on
// it then measured the server together with what shared its CPUs.
func (s *VariantSummary) ServerSharedInMost() bool {
	return s.ServerSharedReps > 0 && 2*s.ServerSharedReps > s.Stats.N
}

// serverWarnings are the warnings of every repetition of r whose
// server's CPUs were shared or that did not load the server.
func serverWarnings(r *results.Run) notes.List {
	ws := repWarnings(r, ServerOtherLoadLine)
	ws = append(ws, repWarnings(r, SharedCPUsLine)...)
	return append(ws, repWarnings(r, NotSaturatedLine)...)
}

// analyzeServerCPUs fills ra's server-side lines and figures for rep.
func analyzeServerCPUs(rep *results.Rep, ra *RepReport) {
	ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated = ServerOtherLoadLine(rep), SharedCPUsLine(rep), NotSaturatedLine(rep)
	if u, ok := RepServerCPUUse(rep); ok {
		ra.ServerCPUs = &u
	}
	ra.Saturation = RepSaturation(rep)
}
