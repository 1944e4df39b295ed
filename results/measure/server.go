package measure

import (
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/notes"
)

// serverUse reads a repetition's server CPUs; none when not recorded.
func serverUse(f func(u *analysis.ServerCPUUse) Value) func(*Rep) Value {
	return func(x *Rep) Value {
		if x.A.ServerCPUs == nil {
			return Value{}
		}
		return f(x.A.ServerCPUs)
	}
}

// serverCPUs: the server's CPUs and whether the window loaded it.
var serverCPUs = []Measure{
	csvOnly("server_cpus", serverUse(func(u *analysis.ServerCPUUse) Value { return Words(u.CPUs) })),
	withUnit("share", csvOnly("server_cpus_busy", serverUse(func(u *analysis.ServerCPUUse) Value { return If(u.Measured, F4(u.Busy)) }))),
	withUnit("share", csvOnly("server_cpus_other_share", serverUse(func(u *analysis.ServerCPUUse) Value { return If(u.Measured, F4(u.Others)) }))),
	csvOnly("server_cpus_busiest", serverUse(func(u *analysis.ServerCPUUse) Value { return busiest(u.Top) })),
	{Key: "server_other_load", JSONKey: "-", Show: CSV,
		Rep: serverUse(func(u *analysis.ServerCPUUse) Value { return If(u.Measured, Truth(u.OtherLoad)) }),
		Variant: func(x *Variant) Value {
			return If(x.S.ServerOtherLoadReps > 0, Words(repsOf(x.S.ServerOtherLoadReps, x.S.Stats.N)))
		}},
	{Key: "shared_cpus", JSONKey: "-", Show: CSV,
		Rep: serverUse(func(u *analysis.ServerCPUUse) Value {
			var common []string
			for _, s := range u.Shared {
				common = append(common, s.Common)
			}
			return Words(strings.Join(common, ";"))
		}),
		Variant: func(x *Variant) Value {
			s := x.S
			return If(s.ServerSharedReps > 0, Words(strings.Join(s.ServerShared.Strings(), "; ")+" ("+repsOf(s.ServerSharedReps, s.Stats.N)+")"))
		}},
	{Key: "not_saturated", JSONKey: "-", Show: CSV,
		Rep: func(x *Rep) Value { s := x.A.Saturation; return If(s.Judged, Truth(s.NotSaturated)) },
		Variant: func(x *Variant) Value {
			return If(x.S.SaturationReps > 0, Words(repsOf(x.S.NotSaturatedReps, x.S.SaturationReps)))
		}},
	{Key: "little_req_per_s", JSONKey: "-", Unit: "req/s", Show: CSV,
		Rep: func(x *Rep) Value { s := x.A.Saturation; return If(s.Judged && s.LittleRate > 0, F3(s.LittleRate)) }},
	{Key: "server_cpus", Show: JSON, Rep: func(x *Rep) Value { return Object(serverCPUsJSON(x.A)) },
		Variant: func(x *Variant) Value { return Object(serverVariantJSON(x.S)) }},
	{Key: "saturation", Show: JSON, Rep: func(x *Rep) Value { return Object(saturationJSON(x.A)) }},
}

// ServerCPUsVariantJSON is a variant's server-side verdicts in a
// SummaryJSON (VariantSummary.ServerSharedReps and the fields beside it).
type ServerCPUsVariantJSON struct {
	// Repetitions with OTHER LOAD on the server's CPUs, with a client
	// group on them, with either (Shared says how); SharedInMost: most.
	OtherLoadReps int      `json:"other_load_reps"`
	SharedCPUReps int      `json:"shared_cpu_reps"`
	SharedReps    int      `json:"shared_reps"`
	Shared        []string `json:"shared,omitempty"`
	SharedInMost  bool     `json:"shared_in_most"`
	// Repetitions judged for saturation, and those NOT SATURATED.
	SaturationReps   int `json:"saturation_reps"`
	NotSaturatedReps int `json:"not_saturated_reps"`
}

// ServerCPUsJSON is how the server's CPUs were used in a repetition
// (analysis.ServerCPUUse): shares of their time 0..1, absent when not read.
type ServerCPUsJSON struct {
	CPUs       string               `json:"cpus"`
	Host       string               `json:"host,omitempty"`
	Busy       *float64             `json:"busy,omitempty"`
	Server     *float64             `json:"server,omitempty"`
	Kaeload    *float64             `json:"kaeload,omitempty"`
	Interrupts *float64             `json:"interrupts,omitempty"`
	Others     *float64             `json:"others,omitempty"`
	Busiest    []results.ProcessCPU `json:"busiest,omitempty"`
	OtherLoad  bool                 `json:"other_load"`
	Shared     []analysis.SharedCPU `json:"shared,omitempty"`
	// Lines are the repetition's OTHER LOAD on the server and SHARED
	// CPUS lines (RepReport), those it has.
	Lines []string `json:"lines,omitempty"`
}

// SaturationJSON is whether a repetition loaded the server
// (analysis.Saturation); present only when judged.
type SaturationJSON struct {
	ServerBusy    float64  `json:"server_busy"`
	CPUsBusy      *float64 `json:"cpus_busy,omitempty"`
	ClientBound   bool     `json:"client_bound"`
	Accelerator   string   `json:"accelerator,omitempty"`
	Connections   int      `json:"connections"`
	MeanLatencyMs float64  `json:"mean_latency_ms"`
	LittleReqPerS float64  `json:"little_req_per_s"`
	ReqPerS       float64  `json:"req_per_s"`
	NotSaturated  bool     `json:"not_saturated"`
	// Line is NotSaturatedLine, when NotSaturated.
	Line string `json:"line,omitempty"`
}

// serverVariantJSON is vs's ServerCPUsVariantJSON, nil when no
// repetition was judged or had its server's CPUs recorded.
func serverVariantJSON(vs *analysis.VariantSummary) *ServerCPUsVariantJSON {
	if vs.SaturationReps == 0 && vs.ServerSharedReps == 0 {
		return nil
	}
	return &ServerCPUsVariantJSON{OtherLoadReps: vs.ServerOtherLoadReps, SharedCPUReps: vs.SharedCPUReps, SharedReps: vs.ServerSharedReps,
		Shared: vs.ServerShared.Strings(), SharedInMost: vs.ServerSharedInMost(), SaturationReps: vs.SaturationReps, NotSaturatedReps: vs.NotSaturatedReps}
}

// serverCPUsJSON is how a repetition used the server's CPUs; nil when
// not recorded.
func serverCPUsJSON(ra *analysis.RepReport) *ServerCPUsJSON {
	u := ra.ServerCPUs
	if u == nil {
		return nil
	}
	m := u.Measured
	sj := &ServerCPUsJSON{CPUs: u.CPUs, Host: u.Host, Busy: Opt(u.Busy, m), Server: Opt(u.Server, m && u.HasServer), Kaeload: Opt(u.Kaeload, m),
		Interrupts: Opt(u.Interrupts, m), Others: Opt(u.Others, m), Busiest: u.Top, OtherLoad: u.OtherLoad, Shared: u.Shared}
	for _, l := range []notes.Note{ra.ServerOtherLoad, ra.SharedCPUs} {
		if !l.IsZero() {
			sj.Lines = append(sj.Lines, l.String())
		}
	}
	return sj
}

// saturationJSON is whether a repetition loaded the server; nil when
// not judged.
func saturationJSON(ra *analysis.RepReport) *SaturationJSON {
	s := ra.Saturation
	if !s.Judged {
		return nil
	}
	return &SaturationJSON{ServerBusy: s.Server, CPUsBusy: Opt(s.CPUsBusy, s.HasCPUsBusy), ClientBound: s.ClientBound, Accelerator: s.Accelerator,
		Connections: s.Connections, MeanLatencyMs: s.MeanLatency.Seconds() * 1e3, LittleReqPerS: s.LittleRate, ReqPerS: s.Rate,
		NotSaturated: s.NotSaturated, Line: ra.NotSaturated.String()}
}
