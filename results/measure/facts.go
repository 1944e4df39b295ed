package measure

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// Fact is a measure's line among a repetition's facts in the text report, placed by Order (0: after
// those placed); no row where Line gives "".
type Fact struct {
	Label string
	Order int
	Line  func(*Rep) string
}

// FactRows are x's labelled facts: each Fact's line by its Order, then the Facts measures' values; no empty rows.
func FactRows(x *Rep) (rows [][2]string) {
	cols := slices.DeleteFunc(Columns(x.R, ^Output(0)), func(c Column) bool {
		return c.Fact == nil && (c.Rep == nil || c.Show&Facts == 0)
	})
	for _, c := range sorted(cols, func(c Column) int { return cmp.Or(c.Fact, &Fact{}).Order }) {
		x.Param = c.Param
		label, line := c.Label, ""
		if c.Fact != nil {
			label, line = replaceParam(c.Fact.Label, c.Param), c.Fact.Line(x)
		} else if v := c.OfRep(x); v.Kind != None {
			line = c.Text(v)
		}
		if line != "" {
			rows = append(rows, [2]string{label, line})
		}
	}
	return rows
}

// facts: the lines the text report always words, beside the measures.
var facts = []Measure{
	{Key: "open_loop", Show: Facts,
		Fact: &Fact{"open loop", 3, func(x *Rep) string { return x.A.OpenLoop.String() }}},
	{Key: "ports_hint", Show: Facts, Fact: &Fact{"", 6, func(x *Rep) string {
		return when(x.Rep.Total.Errors[results.ErrPorts].Count > 0, results.PortsHint)
	}}},
	{Key: "handshakes", Show: Facts | HTML, Order: 6, Rep: func(x *Rep) Value { return Count(x.Rep.Total.Handshakes) },
		Fact: &Fact{"handshakes", 8, func(x *Rep) string {
			t := &x.Rep.Total
			return format.Count(t.Handshakes) + "  (resumed " + format.Count(t.Resumed) + ")"
		}}},
	{Key: "connections", Show: Facts | HTML, Order: 8, Rep: func(x *Rep) Value { return Count(x.Rep.Total.Connections) },
		Fact: &Fact{"connections", 9, func(x *Rep) string { return format.Count(x.Rep.Total.Connections) }}},
	{Key: "status", Show: Facts | HTML, Order: 9, Human: words, Left: true,
		Rep:  func(x *Rep) Value { return Value{Kind: Str, S: format.StatusLine(&x.Rep.Total.Counts)} },
		Fact: &Fact{"status", 10, func(x *Rep) string { return format.StatusLine(&x.Rep.Total.Counts) }}},
	{Key: "server_cpus_words", Show: Facts, Fact: &Fact{"server's cpus", 13, serverCPUsLine}},
	{Key: "in_flight", Show: Facts, Fact: &Fact{"in flight", 14, func(x *Rep) string {
		// Little's law for a closed loop, when judged.
		s := x.A.Saturation
		if !s.Judged || s.MeanLatency <= 0 {
			return ""
		}
		return fmt.Sprintf("%s connections / %s ms mean latency ≈ %s req/s (measured %s req/s)",
			format.Count(uint64(x.Rep.Total.Slots)), format.Millis(s.MeanLatency.Microseconds()),
			format.Rate(s.LittleRate), format.Rate(s.Rate))
	}}},
	{Key: "not_counted", Show: Facts, Fact: &Fact{"not counted", 18, func(x *Rep) string {
		var parts []string
		if o := x.Rep.Total.Outside; o != (results.Outside{}) {
			parts = append(parts, format.OutsideLine(&o))
		}
		if r := x.Rep.Readiness; r != nil {
			parts = append(parts, "readiness "+format.Count(r.Requests)+" (handshakes "+format.Count(r.Handshakes)+
				", connections "+format.Count(r.Connections)+")")
		}
		return strings.Join(parts, ", ")
	}}},
	{Key: "negotiated_none", Show: Facts, Fact: &Fact{"negotiated", 19, func(x *Rep) string {
		return when(len(x.Rep.Total.Negotiated) == 0, "none")
	}}},
}

// when is s when ok, else "" (for a fact: no line).
func when(ok bool, s string) string {
	if !ok {
		return ""
	}
	return s
}

// requestsLine is "N  (K succeeded, R req/s, client U µs per request)".
func requestsLine(x *Rep) string {
	t := &x.Rep.Total
	us, _, ok := x.A.ClientCPU.PerRequest(t.Requests)
	rate := format.Rate(t.Rate()) + " req/s" + when(ok, ", client "+format.Micros(us)+" µs per request")
	succeeded := when(t.Succeeded() != t.Requests, format.Count(t.Succeeded())+" succeeded, ")
	return format.Count(t.Requests) + "  (" + succeeded + rate + ")"
}

// errorsLine is "N  (S of attempts)".
func errorsLine(x *Rep) string {
	t := &x.Rep.Total
	share := when(t.Attempts() > 0 && t.Errors.Total() > 0, "  ("+format.Share(t.ErrorShare())+" of attempts)")
	return format.Count(t.Errors.Total()) + share
}

// errorClassLine is "N  first: MESSAGE" of the class x.Param; "" for none.
func errorClassLine(x *Rep) string {
	ec := &x.Rep.Total.Errors[errorClass(x.Param)]
	return when(ec.Count > 0, format.Count(ec.Count)+"  first: "+format.Message(ec.First))
}

// memoryLine is the client's memory per slot, or before workers measured it, their summed peak RSS.
func memoryLine(x *Rep) string {
	if m, ok := x.Rep.SlotMemory(); ok {
		return format.SlotMemoryLine(m)
	}
	rss := x.Rep.Total.PeakRSS
	return when(rss > 0, format.Rate(float64(rss)/(1<<20))+" MiB peak RSS summed over the workers")
}

// timeWaitLine is the TIME_WAIT sockets after the window; "" when not read.
func timeWaitLine(x *Rep) string {
	rep := x.Rep
	if rep.TimeWait == nil {
		return ""
	}
	tw := format.Count(uint64(max(*rep.TimeWait, 0))) + " sockets on the client machine after the window (the server's too, when it runs here)"
	if n := rep.TimeWaitTarget; n != nil {
		tw += "; " + format.Count(uint64(max(*n, 0))) + " of them the client's, to the target"
	}
	return tw
}

// clientCPULine is kaeload's own CPU time, if recorded, and the groups' CPUs' busy time (each CPU once).
func clientCPULine(x *Rep) string {
	c := x.A.ClientCPU
	if c.Measured == 0 {
		return ""
	}
	line := fmt.Sprintf("%.2f s, busiest group %d at %s", c.Seconds, c.BusyMaxGroup, format.Percent(c.BusyMax))
	line = when(c.ProcessMeasured == c.Groups && c.Groups > 0,
		fmt.Sprintf("kaeload %.2f s; its CPUs ", c.Process)) + line
	if c.Measured < c.Groups {
		return line + fmt.Sprintf(" (%d of %d groups measured)", c.Measured, c.Groups)
	}
	if us, own, ok := c.PerRequest(x.Rep.Total.Requests); ok && us > 0 {
		line += "  (" + format.Rate(1e6/us) + " req per client cpu-s" + when(own, ", kaeload's own") + ")"
	}
	return line
}

// serverCPULine is the server's CPU and processes ("server: nginx (pids 30337, 30338)"), if measured.
func serverCPULine(x *Rep) string {
	u := x.Rep.ServerCPU
	if u == nil {
		return ""
	}
	line := fmt.Sprintf("%.2f s, %s busy", u.Seconds, format.Percent(u.Busy))
	line += when(u.CPUs != "", " on CPUs "+u.CPUs)
	line += when(u.Seconds > 0, "  ("+format.Rate(float64(x.Rep.Total.Requests)/u.Seconds)+" req per server cpu-s)")
	if s := x.Rep.ServerCPUs; s != nil && s.Name != "" {
		pids := Map(s.PIDs[:min(len(s.PIDs), 4)], strconv.Itoa)
		if more := len(s.PIDs) - 4; more > 0 {
			pids[3] += fmt.Sprintf(" and %d more", more)
		}
		line += "  server: " + s.Name + " (pids " + strings.Join(pids, ", ") + ")"
	}
	return line
}

func probeLine(x *Rep) string {
	p, ok := x.Rep.Probes[x.Param]
	switch {
	case !ok:
		return ""
	case p.Error != "":
		return "failed: " + format.Plain(p.Error) // as it was: a pattern's backslashes not doubled
	}
	line := fmt.Sprintf("delta %s (before %s, after %s)", format.Number(p.Delta()), format.Number(p.Before), format.Number(p.After))
	n := x.Rep.Total.Requests
	return line + when(n > 0, fmt.Sprintf(", %.3f per request", p.Delta()/float64(n)))
}

// serverCPUsLine: "CPU 0 100.0 % busy: the server 40 %, kaeload 27 %, interrupts 4 %, others 29 %".
func serverCPUsLine(x *Rep) string {
	u := x.A.ServerCPUs
	if u == nil || !u.Measured {
		return ""
	}
	cpus := "CPU" + when(strings.ContainsAny(u.CPUs, ",-"), "s") + " " + u.CPUs // "CPUs 0-3", "CPU 2"
	cpus += when(u.Host != "", " of "+u.Host)
	s := fmt.Sprintf("%s %s busy: ", cpus, format.Percent(u.Busy))
	s += when(u.HasServer, fmt.Sprintf("the server %.0f %%, ", u.Server*100))
	return s + fmt.Sprintf("kaeload %.0f %%, interrupts %.0f %%, others %.0f %%", u.Kaeload*100, u.Interrupts*100, u.Others*100)
}
