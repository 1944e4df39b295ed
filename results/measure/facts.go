package measure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// Fact is how the text report words a measure among a repetition's facts:
// its label, its place (Order; 0 after those placed) and the line; no row
// where Line gives "".
type Fact struct {
	Label string
	Order int
	Line  func(*Rep) string
}

// fact makes a Fact.
func fact(label string, order int, line func(*Rep) string) *Fact { return &Fact{label, order, line} }

// FactColumns are the columns among a repetition's facts in the text
// report, in order: those worded (Fact) and the others marked Facts.
func FactColumns(m *analysis.Report) []Column {
	var cols []Column
	for _, c := range Columns(m, ^Output(0)) {
		if c.Fact != nil || (c.Rep != nil && c.Show&Facts != 0) {
			cols = append(cols, c)
		}
	}
	order := func(c Column) int {
		if c.Fact == nil {
			return rank(0)
		}
		return rank(c.Fact.Order)
	}
	slices.SortStableFunc(cols, func(a, b Column) int { return order(a) - order(b) })
	return cols
}

// FactRow is c's label and line for x; ok is false for no row.
func (c Column) FactRow(x *Rep) (label, line string, ok bool) {
	if c.Fact == nil {
		v := c.OfRep(x)
		return c.Label, c.Text(v), v.Kind != None
	}
	x.Param = c.Param
	line = c.Fact.Line(x)
	return replaceParam(c.Fact.Label, c.Param), line, line != ""
}

// facts: the lines the text report always words, beside the measures.
var facts = []Measure{
	{Key: "open_loop", JSONKey: "-", Show: Facts, Fact: fact("open loop", 3, func(x *Rep) string { return x.A.OpenLoop.String() })},
	{Key: "ports_hint", JSONKey: "-", Show: Facts, Fact: fact("", 6, func(x *Rep) string {
		if x.Rep.Total.Errors[results.ErrPorts].Count == 0 {
			return ""
		}
		return results.PortsHint
	})},
	{Key: "handshakes", JSONKey: "-", Show: Facts, Rep: func(x *Rep) Value { return Count(x.Rep.Total.Handshakes) }, Fact: fact("handshakes", 8, func(x *Rep) string {
		t := &x.Rep.Total
		return format.Count(t.Handshakes) + "  (resumed " + format.Count(t.Resumed) + ")"
	})},
	{Key: "connections", JSONKey: "-", Show: Facts, Rep: func(x *Rep) Value { return Count(x.Rep.Total.Connections) },
		Fact: fact("connections", 9, func(x *Rep) string { return format.Count(x.Rep.Total.Connections) })},
	{Key: "status", JSONKey: "-", Show: Facts, Human: words, Rep: func(x *Rep) Value { return Value{Kind: Str, S: format.StatusLine(&x.Rep.Total.Counts)} },
		Fact: fact("status", 10, func(x *Rep) string { return format.StatusLine(&x.Rep.Total.Counts) })},
	{Key: "server_cpus_words", JSONKey: "-", Show: Facts, Fact: fact("server's cpus", 13, func(x *Rep) string { return ServerCPUsWords(x.A.ServerCPUs) })},
	{Key: "in_flight", JSONKey: "-", Show: Facts, Fact: fact("in flight", 14, func(x *Rep) string { return LittleWords(x.A.Saturation) })},
	{Key: "not_counted", JSONKey: "-", Show: Facts, Fact: fact("not counted", 18, func(x *Rep) string {
		var parts []string
		if o := x.Rep.Total.Outside; o != (results.Outside{}) {
			parts = append(parts, format.OutsideLine(&o))
		}
		if r := x.Rep.Readiness; r != nil {
			parts = append(parts, format.ReadinessLine(r))
		}
		return strings.Join(parts, ", ")
	})},
	{Key: "negotiated_none", JSONKey: "-", Show: Facts, Fact: fact("negotiated", 19, func(x *Rep) string {
		if len(x.Rep.Total.Negotiated) == 0 {
			return "none"
		}
		return ""
	})},
}

// requestsLine is "N  (K succeeded, R req/s, client U µs per request)".
func requestsLine(x *Rep) string {
	t := &x.Rep.Total
	rate := format.Rate(t.Rate()) + " req/s" + clientCostNote(x.A, t.Requests)
	if ok := t.Succeeded(); ok != t.Requests {
		return format.Count(t.Requests) + "  (" + format.Count(ok) + " succeeded, " + rate + ")"
	}
	return format.Count(t.Requests) + "  (" + rate + ")"
}

// errorsLine is "N  (S of attempts)".
func errorsLine(x *Rep) string {
	t := &x.Rep.Total
	errs := format.Count(t.Errors.Total())
	if t.Attempts() > 0 && t.Errors.Total() > 0 {
		errs += "  (" + format.Share(t.ErrorShare()) + " of attempts)"
	}
	return errs
}

// errorClassLine is "N  first: MESSAGE" of the class x.Param; "" for none.
func errorClassLine(x *Rep) string {
	ec := &x.Rep.Total.Errors[errorClass(x.Param)]
	if ec.Count == 0 {
		return ""
	}
	return format.Count(ec.Count) + "  first: " + format.Message(ec.First)
}

// memoryLine is the client's memory per slot, or for a run recorded
// before workers measured it, the peak RSS summed over the workers.
func memoryLine(x *Rep) string {
	if m, ok := x.Rep.SlotMemory(); ok {
		return format.SlotMemoryLine(m)
	}
	if rss := x.Rep.Total.PeakRSS; rss > 0 {
		return format.Rate(float64(rss)/(1<<20)) + " MiB peak RSS summed over the workers"
	}
	return ""
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

// clientCPULine renders the client CPU use of a repetition, "" when not
// measured: kaeload's own time when recorded, and the busy time of the
// groups' CPUs (each CPU counted once).
func clientCPULine(c analysis.ClientCPU, requests uint64) string {
	if c.Measured == 0 {
		return ""
	}
	line := fmt.Sprintf("%.2f s, busiest group %d at %s", c.Seconds, c.BusyMaxGroup, format.Percent(c.BusyMax))
	if c.ProcessMeasured == c.Groups && c.Groups > 0 {
		line = fmt.Sprintf("kaeload %.2f s; its CPUs %s", c.Process, line)
	}
	if c.Measured < c.Groups {
		return line + fmt.Sprintf(" (%d of %d groups measured)", c.Measured, c.Groups)
	}
	if us, own, ok := c.PerRequest(requests); ok && us > 0 {
		line += fmt.Sprintf("  (%s req per client cpu-s", format.Rate(1e6/us))
		if own {
			line += ", kaeload's own"
		}
		line += ")"
	}
	return line
}

// clientCostNote is ", client N µs per request" for a repetition whose
// client CPU was measured, "" otherwise: the generator's cost beside the
// server's rate.
func clientCostNote(ra *analysis.RepReport, requests uint64) string {
	if us, _, ok := ra.ClientCPU.PerRequest(requests); ok {
		return ", client " + format.Micros(us) + " µs per request"
	}
	return ""
}

// serverCPULine renders the server CPU use of a repetition and the
// processes measured; "" when not measured.
func serverCPULine(x *Rep) string {
	u, requests := x.Rep.ServerCPU, x.Rep.Total.Requests
	if u == nil {
		return ""
	}
	line := fmt.Sprintf("%.2f s, %s busy", u.Seconds, format.Percent(u.Busy))
	if u.CPUs != "" {
		line += " on CPUs " + u.CPUs
	}
	if u.Seconds > 0 {
		line += fmt.Sprintf("  (%s req per server cpu-s)", format.Rate(float64(requests)/u.Seconds))
	}
	return line + serverNamed(x.Rep.ServerCPUs)
}

// serverNamed is "  server: nginx (pids 30337, 30338)", the processes
// measured as the server; "" when not named.
func serverNamed(s *results.ServerCPUs) string {
	if s == nil || s.Name == "" {
		return ""
	}
	pids, more := s.PIDs, ""
	if len(pids) > 4 {
		pids, more = pids[:4], fmt.Sprintf(" and %d more", len(s.PIDs)-4)
	}
	words := make([]string, len(pids))
	for i, p := range pids {
		words[i] = strconv.Itoa(p)
	}
	return "  server: " + s.Name + " (pids " + strings.Join(words, ", ") + more + ")"
}

// probeLine renders one probe reading of a repetition.
func probeLine(p results.ProbeReading, requests uint64) string {
	if p.Error != "" {
		return "failed: " + format.Plain(p.Error) // as it was: a pattern's backslashes not doubled
	}
	line := fmt.Sprintf("delta %s (before %s, after %s)", format.Number(p.Delta()), format.Number(p.Before), format.Number(p.After))
	if requests > 0 {
		line += fmt.Sprintf(", %.3f per request", p.Delta()/float64(requests))
	}
	return line
}

// ServerCPUsWords says how a repetition used the server's CPUs: "CPU 0
// 100.0 % busy: the server 40 %, kaeload 27 %, interrupts 4 %, others 29 %".
func ServerCPUsWords(u *analysis.ServerCPUUse) string {
	if u == nil || !u.Measured {
		return ""
	}
	cpus := "CPUs " + u.CPUs
	if !strings.ContainsAny(u.CPUs, ",-") {
		cpus = "CPU " + u.CPUs
	}
	if u.Host != "" {
		cpus += " of " + u.Host
	}
	s := fmt.Sprintf("%s %s busy: ", cpus, format.Percent(u.Busy))
	if u.HasServer {
		s += fmt.Sprintf("the server %.0f %%, ", u.Server*100)
	}
	return s + fmt.Sprintf("kaeload %.0f %%, interrupts %.0f %%, others %.0f %%", u.Kaeload*100, u.Interrupts*100, u.Others*100)
}

// LittleWords is Little's law for a repetition's closed loop, when judged: "8
// connections / 12.520 ms mean latency ≈ 639.0 req/s (measured 637.5 req/s)".
func LittleWords(s analysis.Saturation) string {
	if !s.Judged || s.MeanLatency <= 0 {
		return ""
	}
	return fmt.Sprintf("%s connections / %s ms mean latency ≈ %s req/s (measured %s req/s)", format.Count(uint64(s.Connections)),
		format.Millis(s.MeanLatency.Microseconds()), format.Rate(s.LittleRate), format.Rate(s.Rate))
}
