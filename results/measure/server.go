package measure

import (
	"slices"
	"strings"

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
	{Key: "server_cpus", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value { return Words(u.CPUs) })},
	{Key: "server_cpus_busy", Unit: "share", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value {
		return If(u.Measured, F4(u.Busy))
	})},
	{Key: "server_cpus_other_share", Unit: "share", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value {
		return If(u.Measured, F4(u.Others))
	})},
	{Key: "server_cpus_busiest", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value { return busiest(u.Top) })},
	{Key: "server_other_load", Show: CSV,
		Rep: serverUse(func(u *analysis.ServerCPUUse) Value { return If(u.Measured, Truth(u.OtherLoad)) }),
		Variant: func(x *Variant) Value {
			return If(x.S.ServerOtherLoadReps > 0, Words(repsOf(x.S.ServerOtherLoadReps, x.S.Stats.N)))
		}},
	{Key: "shared_cpus", Show: CSV,
		Rep: serverUse(func(u *analysis.ServerCPUUse) Value {
			return joined(u.Shared, func(s analysis.SharedCPU) string { return s.Common })
		}),
		Variant: func(x *Variant) Value {
			s := x.S
			return If(s.ServerSharedReps > 0, Words(strings.Join(s.ServerShared.Strings(), "; ")+" ("+repsOf(s.ServerSharedReps, s.Stats.N)+")"))
		}},
	{Key: "not_saturated", Show: CSV,
		Rep: func(x *Rep) Value { s := x.A.Saturation; return If(s.Judged, Truth(s.NotSaturated)) },
		Variant: func(x *Variant) Value {
			return If(x.S.SaturationReps > 0, Words(repsOf(x.S.NotSaturatedReps, x.S.SaturationReps)))
		}},
	{Key: "little_req_per_s", Unit: "req/s", Show: CSV,
		Rep: func(x *Rep) Value { s := x.A.Saturation; return If(s.Judged && s.LittleRate > 0, F3(s.LittleRate)) }},
	{Key: "server_cpus", Show: JSON, Rep: func(x *Rep) Value { return serverCPUsJSON(x.A) },
		Variant: func(x *Variant) Value { return serverVariantJSON(x.S) }},
	{Key: "saturation", Show: JSON, Rep: func(x *Rep) Value { return saturationJSON(x.A) }},
}

// serverVariantJSON is a variant's server-side verdicts: repetitions with
// OTHER LOAD on the server's CPUs, with a client group on them, with
// either (shared says how); those judged for saturation, NOT SATURATED.
func serverVariantJSON(vs *analysis.VariantSummary) Value {
	return If(vs.SaturationReps > 0 || vs.ServerSharedReps > 0, Object(dense(Fields{
		{"other_load_reps", vs.ServerOtherLoadReps}, {"shared_cpu_reps", vs.SharedCPUReps}, {"shared_reps", vs.ServerSharedReps},
		opt("shared", vs.ServerShared.Strings()), {"shared_in_most", vs.ServerSharedInMost()},
		{"saturation_reps", vs.SaturationReps}, {"not_saturated_reps", vs.NotSaturatedReps}})))
}

// serverCPUsJSON is how a repetition used the server's CPUs, shares of
// their time 0..1, with its OTHER LOAD and SHARED CPUS lines.
func serverCPUsJSON(ra *analysis.RepReport) Value {
	u := ra.ServerCPUs
	if u == nil {
		return Value{}
	}
	m := u.Measured
	return Object(dense(Fields{{"cpus", u.CPUs}, opt("host", u.Host), opt("busy", Opt(u.Busy, m)),
		opt("server", Opt(u.Server, m && u.HasServer)), opt("kaeload", Opt(u.Kaeload, m)),
		opt("interrupts", Opt(u.Interrupts, m)), opt("others", Opt(u.Others, m)), opt("busiest", u.Top),
		{"other_load", u.OtherLoad}, opt("shared", u.Shared),
		opt("lines", slices.DeleteFunc(notes.List{ra.ServerOtherLoad, ra.SharedCPUs}.Strings(), isEmpty))}))
}

// saturationJSON is whether a repetition loaded the server, when judged.
func saturationJSON(ra *analysis.RepReport) Value {
	s := ra.Saturation
	return If(s.Judged, Object(dense(Fields{{"server_busy", s.Server}, opt("cpus_busy", Opt(s.CPUsBusy, s.HasCPUsBusy)),
		{"client_bound", s.ClientBound}, opt("accelerator", s.Accelerator), {"connections", s.Connections},
		{"mean_latency_ms", s.MeanLatency.Seconds() * 1e3}, {"little_req_per_s", s.LittleRate}, {"req_per_s", s.Rate},
		{"not_saturated", s.NotSaturated}, opt("line", ra.NotSaturated.String())})))
}

func isEmpty(s string) bool { return s == "" }
