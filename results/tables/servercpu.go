package tables

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// ServerNotes are a variant's notes on the server's CPUs: shared with a
// client group or other processes (VariantSummary.ServerSharedReps), and
// not loaded at all (VariantSummary.NotSaturatedReps).
func ServerNotes(v *analysis.VariantSummary) []string {
	reps := func(k int) string {
		if v.Stats.N > 1 {
			return fmt.Sprintf(" (%d of %d reps)", k, v.Stats.N)
		}
		return ""
	}
	var notes []string
	if v.ServerSharedReps > 0 {
		notes = append(notes, "SHARED CPUS: "+strings.Join(v.ServerShared.Strings(), ", ")+reps(v.ServerSharedReps))
	}
	if v.NotSaturatedReps > 0 {
		notes = append(notes, "NOT SATURATED"+reps(v.NotSaturatedReps))
	}
	return notes
}

// ServerCPUsWords says how the server's CPUs were used in a repetition
// (RepReport.ServerCPUs): "CPU 0 100.0 % busy: the server 40 %, kaeload
// 27 %, interrupts 4 %, others 29 %"; "" when their busy time was not
// read.
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

// LittleWords is Little's law for a repetition's closed loop
// (RepReport.Saturation): "8 connections / 12.520 ms mean latency ≈
// 639.0 req/s (measured 637.5 req/s)"; "" when the latency was not
// measured.
func LittleWords(s analysis.Saturation) string {
	if s.MeanLatency <= 0 {
		return ""
	}
	return fmt.Sprintf("%s connections / %s ms mean latency ≈ %s req/s (measured %s req/s)", format.Count(uint64(s.Connections)),
		format.Millis(s.MeanLatency.Microseconds()), format.Rate(s.LittleRate), format.Rate(s.Rate))
}
