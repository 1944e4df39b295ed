package measure

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
)

// Catalogue is every measure, in summary.csv's column order, JSON-only measures beside their CSV columns.
var Catalogue = slices.Concat(counts, latencies, cpuAndClient, timeline, timelineJSON, serverCPUs, probes, comparison, answers, facts, runs, latencyRows, groupRows, pageGroupRows, pageOnly)

// counts: the window, its requests and errors.
var counts = []Measure{
	{Key: "reps", Show: JSON, Variant: func(x *Variant) Value { return Count(x.S.Stats.N) }},
	{Key: "failed_reps", Show: JSON, Variant: func(x *Variant) Value { return If(x.S.FailedReps > 0, Count(x.S.FailedReps)) }},
	{Key: "window_s", Unit: "s", Label: "window s", Show: CSV | JSON | Markdown | HTML | PartialRow, Order: 1,
		PageLabel: "window", PageUnit: true,
		Rep: func(x *Rep) Value { return F3(x.Rep.Total.Window.Length().Seconds()) }, Human: plain,
		Fact: &Fact{"window", 1, func(x *Rep) string {
			return fmt.Sprintf("%.3f s", x.Rep.Total.Window.Length().Seconds())
		}}},
	{Key: "window_%s_spread_ms", JSONKey: "window_spread_ms.%s", Unit: "ms", Label: "window %s spread ms",
		Show: All | PartialRow, Each: spreads,
		Rep: func(x *Rep) Value {
			return From(x.Rep.WindowSpread, func(s *results.WindowSpread) Value {
				return F3(map[string]time.Duration{"start": s.Start, "end": s.End}[x.Param].Seconds() * 1e3)
			})
		}},
	{Key: "misaligned", Show: CSV | JSON | PartialRow, When: func(m *analysis.Report) bool { return spreads(m) != nil },
		Rep: func(x *Rep) Value { return If(x.Rep.WindowSpread != nil, Truth(analysis.Misaligned(x.Rep))) },
		Fact: &Fact{"caution", 2, func(x *Rep) string {
			return when(analysis.Misaligned(x.Rep), notes.MisalignedWords)
		}}},
	counted(Measure{Key: "requests", Label: "requests", Show: CSV | JSON | Markdown | HTML | PartialRow, Order: 2,
		Fact: &Fact{"requests", 2, requestsLine}}, func(c *results.Counts) uint64 { return c.Requests }),
	{Key: "req_per_s", Unit: "req/s", Label: "req/s", Show: CSV | Markdown | JSON | HTML | PartialRow | OpenMetrics,
		Order: 3, Metric: "kaeload_window_requests_per_second",
		Rep:     func(x *Rep) Value { return F3(x.Rep.Total.Rate()) },
		Variant: func(x *Variant) Value { return Object(x.S.Stats) }}, // JSON alone shows a variant's
	counted(Measure{Key: "errors", Label: "errors", Show: CSV | JSON | Tables | HTML | PartialRow, Order: 5, VOrder: 12,
		Fact: &Fact{"errors", 4, errorsLine}}, func(c *results.Counts) uint64 { return c.Errors.Total() }),
	{Key: "error_share", Show: JSON, Variant: func(x *Variant) Value { return G(x.S.ErrorShare()) }},
	{Key: "errors_%s", JSONKey: "errors_by_class.%s", Show: CSV | JSON, Each: errorClasses,
		Rep:     func(x *Rep) Value { return Count(x.Rep.Total.Errors[errorClass(x.Param)].Count) },
		Variant: func(x *Variant) Value { return Count(x.S.Errors[errorClass(x.Param)].Count) },
		Fact:    &Fact{"  %s", 5, errorClassLine}},
	counted(Measure{Key: "resumed", Show: CSV | JSON | HTML, Order: 7},
		func(c *results.Counts) uint64 { return c.Resumed }),
}

// spreads are the window spreads' members, for a run that records them.
func spreads(m *analysis.Report) []string {
	for _, v := range m.Run.Variants {
		if slices.ContainsFunc(v.Reps, func(r results.Rep) bool { return r.WindowSpread != nil }) {
			return []string{"start", "end"}
		}
	}
	return nil
}

func errorClasses(*analysis.Report) []string {
	var out []string
	for c := range results.NumErrorClasses {
		out = append(out, c.String())
	}
	return out
}

func errorClass(name string) results.ErrorClass {
	return results.ErrorClass(slices.Index(errorClasses(nil), name))
}

// counted is m reading a count of the window, or of the variant's reps summed.
func counted(m Measure, n func(*results.Counts) uint64) Measure {
	m.Rep = func(x *Rep) Value { return Count(n(&x.Rep.Total.Counts)) }
	m.Variant = func(x *Variant) Value { return Count(n(&x.S.Counts)) }
	return m
}

// plain writes a value as its CSV cell ("12.345"), "-" for none.
func plain(v Value) string {
	if v.Kind == None {
		return format.Missing
	}
	return v.Text()
}

// latency is the q-th percentile of a repetition's latency or its variant's merged; "intended" in an open loop.
func latency(name string, q int, label string, show Output, order, vorder int) Measure {
	p := strconv.Itoa(q)
	of := func(l *results.Latency, scheduled uint64) Value {
		return If(name != "intended" || scheduled > 0, Quantile(latencyOf(l, name), float64(q)))
	}
	return Measure{Key: name + "_p" + p + "_ms", JSONKey: "latency_ms." + name + "_p" + p, Unit: "ms", Label: label, Show: show, Order: order, VOrder: vorder,
		Rep:     func(x *Rep) Value { return of(&x.Rep.Total.Latency, x.Rep.Total.Scheduled) },
		Variant: func(x *Variant) Value { return of(&x.S.Latency, x.S.Scheduled) }}
}

func latencyOf(l *results.Latency, name string) *results.Histogram {
	return map[string]*results.Histogram{"connect": l.Connect, "handshake": l.Handshake, "ttfb": l.TTFB, "total": l.Total, "intended": l.Intended}[name]
}

var latencies = []Measure{
	latency("connect", 50, "", JSON, 0, 0),
	latency("connect", 99, "", JSON, 0, 0),
	latency("handshake", 50, "", CSV|JSON, 0, 0),
	latency("handshake", 99, "p99 handshake ms", CSV|JSON|Markdown, 6, 11),
	latency("ttfb", 50, "", JSON, 0, 0),
	latency("ttfb", 99, "", JSON, 0, 0),
	latency("total", 50, "", CSV|JSON, 0, 0),
	latency("total", 99, "p99 total ms", CSV|JSON|Markdown|HTML, 10, 0),
	{Key: "scheduled", Label: "starts due", Show: CSV | JSON | OpenLoopPage, Needs: true,
		Rep:     func(x *Rep) Value { t := &x.Rep.Total; return If(t.Scheduled > 0, Count(t.Scheduled)) },
		Variant: func(x *Variant) Value { return If(x.S.Scheduled > 0, Count(x.S.Scheduled)) }},
	{Key: "missed", Show: CSV | JSON | OpenLoopPage,
		Rep:     func(x *Rep) Value { t := &x.Rep.Total; return If(t.Scheduled > 0, Count(t.Missed)) },
		Variant: func(x *Variant) Value { return If(x.S.Scheduled > 0, Count(x.S.Missed)) }},
	latency("intended", 50, "p50 from intended", CSV|JSON|OpenLoopPage, 0, 0),
	latency("intended", 99, "p99 from intended", CSV|JSON|OpenLoopPage, 0, 0),
}

// fullCPU is the client's CPU seconds when every group was measured.
func fullCPU(x *Rep) (float64, bool) {
	c := x.A.ClientCPU
	return c.Seconds, c.Measured == c.Groups && c.Groups > 0
}

// cpuAndClient: CPU, the client's flags, what it did outside the window, memory.
var cpuAndClient = []Measure{
	{Key: "client_busy_max", Unit: "share", Label: "client busy max", Show: CSV | JSON | Markdown | CPUPage, Order: 11,
		PageLabel: "client busiest group", Needs: true,
		Rep:     func(x *Rep) Value { return If(x.A.ClientCPU.Measured > 0, fixed(x.A.ClientCPU.BusyMax, 4)) },
		Variant: func(x *Variant) Value { return If(x.S.HasClientCPU, fixed(x.S.ClientBusyMax, 4)) }},
	{Key: "client_cpu_s", Unit: "s", Show: CSV | JSON,
		Rep:  func(x *Rep) Value { s, ok := fullCPU(x); return If(ok, F3(s)) },
		Fact: &Fact{"client cpu", 11, clientCPULine}},
	{Key: "req_per_client_cpu_s", Show: CSV | JSON, Rep: func(x *Rep) Value {
		s, ok := fullCPU(x)
		return If(ok && s > 0, F3(float64(x.Rep.Total.Requests)/s))
	}},
	{Key: "client_us_per_request", Unit: "µs", Label: "client µs/req", Show: CSV | JSON | Markdown | HTML,
		Order: 4, VOrder: 3, Sparse: true,
		Rep: func(x *Rep) Value {
			us, _, ok := x.A.ClientCPU.PerRequest(x.Rep.Total.Requests)
			return If(ok, F3(us))
		},
		Variant: func(x *Variant) Value { us, ok := x.S.ClientMicrosPerRequest(); return If(ok, F3(us)) }},
	{Key: "server_cpu_reps", Label: "reps with server CPU", Show: ServerCostPage,
		Variant: func(x *Variant) Value { return If(x.S.ServerCPUReps > 0, Count(x.S.ServerCPUReps)) }},
	{Key: "server_cpu_s", Unit: "s", Label: "server cpu s", Show: CSV | JSON | Markdown | ServerCostPage | CPUPage,
		Order: 12, PageLabel: "server CPU time", PageUnit: true,
		Rep: func(x *Rep) Value {
			return From(x.Rep.ServerCPU, func(u *results.CPUUsage) Value { return F3(u.Seconds) })
		},
		Variant: func(x *Variant) Value { return If(x.S.ServerCPUReps > 0, F3(x.S.ServerCPUSeconds)) },
		Fact:    &Fact{"server cpu", 12, serverCPULine}},
	{Key: "req_per_server_cpu_s", Unit: "req/cpu-s", Label: "req/server cpu-s", Show: CSV | JSON | Tables | ServerCostPage,
		Order: 13, VOrder: 13, Sparse: true, Needs: true,
		Rep: func(x *Rep) Value {
			return From(x.Rep.ServerCPU, func(u *results.CPUUsage) Value {
				return If(u.Seconds > 0, F3(float64(x.Rep.Total.Requests)/u.Seconds))
			})
		},
		Variant: func(x *Variant) Value { r, ok := x.S.RequestsPerServerCPU(); return If(ok, F3(r)) }},
	{Key: "req_per_server_cpu_s_ci", Unit: "req/cpu-s", Label: "95 % CI (per repetition)", Show: ServerCostPage,
		Left: true, Human: words, Variant: func(x *Variant) Value { return Words(CICell(x.S.ServerCPUStats)) }},
	{Key: "client_bound", Show: CSV | JSON,
		Rep:     func(x *Rep) Value { return Truth(!x.A.ClientBound.IsZero()) },
		Variant: func(x *Variant) Value { return Truth(x.S.ClientBoundReps > 0) }},
	{Key: "client_bound_reps", Show: JSON, Variant: func(x *Variant) Value { return If(x.S.ClientBoundReps > 0, Count(x.S.ClientBoundReps)) }},
	{Key: "other_load", Show: CSV | JSON,
		Rep:     func(x *Rep) Value { return Truth(!x.A.OtherLoad.IsZero()) },
		Variant: func(x *Variant) Value { return Truth(x.S.OtherLoadReps > 0) }},
	{Key: "other_load_reps", Show: JSON, Variant: func(x *Variant) Value { return If(x.S.OtherLoadReps > 0, Count(x.S.OtherLoadReps)) }},
	{Key: "client_other_share", Unit: "share", Show: CSV | JSON, Rep: func(x *Rep) Value {
		return From(x.A.MostOthers, func(g *analysis.GroupCPU) Value { return fixed(g.Others, 4) })
	}},
	{Key: "other_busiest", Show: CSV | JSON, Rep: func(x *Rep) Value {
		return From(x.A.MostOthers, func(g *analysis.GroupCPU) Value { return busiest(g.Top) })
	}},
	{Key: "failed", Show: CSV | JSON | PartialRow | UnmeasuredRow, Variant: variantFailed,
		Rep: func(x *Rep) Value { // a partial window's line, or the repetition's failure
			if x.A == nil {
				return Words(x.Note)
			}
			return Words(notes.Failure(x.Rep.Failed).String())
		}},
	counted(Measure{Key: "unanswered", Show: CSV | JSON,
		Fact: &Fact{"unanswered", 7, func(x *Rep) string { return x.A.Unanswered.String() }}},
		func(c *results.Counts) uint64 { return c.Outside.Unanswered.Total() }),
	counted(Measure{Key: "warmup_responses", Show: CSV | JSON}, func(c *results.Counts) uint64 { return c.Outside.Warmup }),
	counted(Measure{Key: "warmup_errors", Show: CSV | JSON}, func(c *results.Counts) uint64 { return c.Outside.WarmupErrorTotal() }),
	counted(Measure{Key: "after_responses", Show: CSV | JSON}, func(c *results.Counts) uint64 { return c.Outside.Late }),
	counted(Measure{Key: "after_errors", Show: CSV | JSON}, func(c *results.Counts) uint64 { return c.Outside.AfterClasses.Total() }),
	{Key: "warmup", Show: JSON,
		Rep: func(x *Rep) Value { return Object(phaseJSON(&x.Rep.Total.Outside, false)) }},
	{Key: "after", Show: JSON, Rep: func(x *Rep) Value { return Object(phaseJSON(&x.Rep.Total.Outside, true)) }},
	{Key: "client_time_wait", Show: CSV | JSON, Fact: &Fact{"time_wait", 16, timeWaitLine},
		Rep: func(x *Rep) Value {
			return From(x.Rep.TimeWait, func(n *int) Value { return fixed(float64(*n), 0) })
		}},
	{Key: "client_peak_rss_mib", Unit: "MiB", Show: CSV | JSON,
		Rep: func(x *Rep) Value { t := &x.Rep.Total; return If(t.PeakRSS > 0, F3(float64(t.PeakRSS)/(1<<20))) }},
	{Key: "client_kib_per_slot", Unit: "KiB", Show: CSV | JSON,
		Rep:  func(x *Rep) Value { m, ok := x.Rep.SlotMemory(); return If(ok && m.Known, F3(m.PerSlot/1024)) },
		Fact: &Fact{"client memory", 15, memoryLine}},
}

// busiest is "comm pid N" of the first of top; none for none.
func busiest(top []results.ProcessCPU) Value {
	if len(top) == 0 {
		return Value{}
	}
	return Words(fmt.Sprintf("%s pid %d", top[0].Comm, top[0].PID))
}

func repsOf(k, n int) string { return fmt.Sprintf("%d of %d reps", k, n) }

// variantFailed is "K of N reps" failed and/or "not measured: REASON".
func variantFailed(x *Variant) Value {
	var parts []string
	if x.S != nil && x.S.FailedReps > 0 {
		parts = append(parts, repsOf(x.S.FailedReps, x.S.Stats.N))
	}
	if nm := find(x.R.Run.NotMeasured, func(nm *results.NotMeasured) bool { return nm.Variant == x.Name }); nm != nil {
		parts = append(parts, "not measured: "+nm.Reason)
	}
	return Words(strings.Join(parts, "; "))
}

func probeNames(m *analysis.Report) []string {
	set := map[string]results.ProbeReading{}
	for i := range m.Run.Variants {
		for j := range m.Run.Variants[i].Reps {
			maps.Copy(set, m.Run.Variants[i].Reps[j].Probes)
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// probe and probeSummary read probe x.Param of a repetition (read without error) and of a variant.
func probe(f func(p results.ProbeReading, requests uint64) Value) func(*Rep) Value {
	return func(x *Rep) Value {
		p, ok := x.Rep.Probes[x.Param]
		return If(ok && p.Error == "", f(p, x.Rep.Total.Requests))
	}
}

func probeSummary(f func(p *analysis.ProbeSummary) Value) func(*Variant) Value {
	return func(x *Variant) Value {
		return From(find(x.S.Probes, func(p *analysis.ProbeSummary) bool { return p.Name == x.Param }), f)
	}
}

// probes: each probe's delta over the window and per request.
var probes = []Measure{
	{Key: "probe.%s.delta", Show: CSV, Each: probeNames, Fact: &Fact{"probe %s", 17, probeLine},
		Rep:     probe(func(p results.ProbeReading, _ uint64) Value { return G(p.Delta()) }),
		Variant: probeSummary(func(p *analysis.ProbeSummary) Value { return If(p.N > 0, G(p.MeanDelta)) })},
	{Key: "probe.%s.per_request", Show: CSV, Each: probeNames,
		Rep: probe(func(p results.ProbeReading, n uint64) Value {
			return If(n > 0, fixed(p.Delta()/float64(n), 6))
		}),
		Variant: probeSummary(func(p *analysis.ProbeSummary) Value {
			return From(p.PerRequest, func(per *float64) Value { return fixed(*per, 6) })
		})},
	{Key: "probes", Show: JSON, Variant: func(x *Variant) Value { return If(len(x.S.Probes) > 0, Object(x.S.Probes)) }},
}

// serverUse reads a repetition's server CPUs; none when not recorded.
func serverUse(f func(u *analysis.ServerCPUUse) Value) func(*Rep) Value {
	return func(x *Rep) Value { return From(x.A.ServerCPUs, f) }
}

// serverCPUs: the server's CPUs and whether the window loaded it.
var serverCPUs = []Measure{
	{Key: "server_cpus", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value { return Words(u.CPUs) })},
	{Key: "server_cpus_busy", Unit: "share", Show: CSV,
		Rep: func(x *Rep) Value { busy, ok := x.A.ServerCPUsBusy(); return If(ok, fixed(busy, 4)) }},
	{Key: "server_cpus_other_share", Unit: "share", Show: CSV, Rep: serverUse(func(u *analysis.ServerCPUUse) Value {
		return If(u.Measured, fixed(u.Others, 4))
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
	{Key: "server_cpus", Show: JSON, Rep: serverCPUsJSON, Variant: serverVariantJSON},
	{Key: "saturation", Show: JSON, Rep: saturationJSON},
}

// serverVariantJSON counts a variant's reps with OTHER LOAD on the server's CPUs, with a client group
// on them, with either (shared says how; in most: a verdict measured them too), judged for saturation,
// NOT SATURATED.
func serverVariantJSON(x *Variant) Value {
	vs := x.S
	return If(vs.SaturationReps > 0 || vs.ServerSharedReps > 0, Object(Dense(Fields{
		{"other_load_reps", vs.ServerOtherLoadReps}, {"shared_cpu_reps", vs.SharedCPUReps}, {"shared_reps", vs.ServerSharedReps},
		Omit("shared", vs.ServerShared.Strings()),
		{"shared_in_most", vs.ServerSharedReps > 0 && 2*vs.ServerSharedReps > vs.Stats.N},
		{"saturation_reps", vs.SaturationReps}, {"not_saturated_reps", vs.NotSaturatedReps}})))
}

// serverCPUsJSON is how a repetition used the server's CPUs (shares 0..1).
func serverCPUsJSON(x *Rep) Value {
	ra := x.A
	return From(ra.ServerCPUs, func(u *analysis.ServerCPUUse) Value {
		m := u.Measured
		return Object(Dense(Fields{{"cpus", u.CPUs}, Omit("host", u.Host), Omit("busy", Opt(u.Busy, m)),
			Omit("server", Opt(u.Server, m && u.HasServer)), Omit("kaeload", Opt(u.Kaeload, m)),
			Omit("interrupts", Opt(u.Interrupts, m)), Omit("others", Opt(u.Others, m)), Omit("busiest", u.Top),
			{"other_load", u.OtherLoad}, Omit("shared", u.Shared),
			Omit("lines", slices.DeleteFunc(notes.List{ra.ServerOtherLoad, ra.SharedCPUs}.Strings(), isEmpty))}))
	})
}

// saturationJSON is whether a repetition loaded the server, when judged.
func saturationJSON(x *Rep) Value {
	ra, s := x.A, x.A.Saturation
	if !s.Judged { // else the server's CPU was read
		return Value{}
	}
	return Object(Dense(Fields{{"server_busy", x.Rep.ServerCPU.Busy},
		Omit("cpus_busy", Opt(ra.ServerCPUsBusy())), {"client_bound", !ra.ClientBound.IsZero()},
		Omit("accelerator", s.Accelerator), {"connections", x.Rep.Total.Slots},
		{"mean_latency_ms", s.MeanLatency.Seconds() * 1e3}, {"little_req_per_s", s.LittleRate}, {"req_per_s", s.Rate},
		{"not_saturated", s.NotSaturated}, Omit("line", ra.NotSaturated.String())}))
}

func isEmpty(s string) bool { return s == "" }
