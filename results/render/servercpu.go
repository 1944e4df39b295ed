package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
)

// serverCPUsColumns are summary.csv's columns on the server's CPUs and
// its saturation (serverCPUsCells, serverCPUsAllCells).
var serverCPUsColumns = []string{"server_cpus", "server_cpus_busy", "server_cpus_other_share", "server_cpus_busiest",
	"server_other_load", "shared_cpus", "not_saturated", "little_req_per_s"}

// serverCPUsCells are a repetition's cells of serverCPUsColumns: the
// server's CPUs, their busy share and the share other processes took
// (0..1, empty when not read), the busiest other process ("comm pid N"),
// server_other_load (true/false), the CPUs a client group shared with
// the server, not_saturated (true/false, empty when not judged) and
// connections / mean latency in req/s (Little's law, empty when not
// judged).
func serverCPUsCells(ra *analysis.RepReport) []string {
	out := make([]string, len(serverCPUsColumns))
	if u := ra.ServerCPUs; u != nil {
		out[0] = u.CPUs
		if u.Measured {
			out[1], out[2] = csvF4(u.Busy), csvF4(u.Others)
			out[4] = strconv.FormatBool(u.OtherLoad)
		}
		if len(u.Top) > 0 {
			out[3] = fmt.Sprintf("%s pid %d", u.Top[0].Comm, u.Top[0].PID)
		}
		var common []string
		for _, s := range u.Shared {
			common = append(common, s.Common)
		}
		out[5] = strings.Join(common, ";")
	}
	if s := ra.Saturation; s.Judged {
		out[6] = strconv.FormatBool(s.NotSaturated)
		if s.LittleRate > 0 {
			out[7] = csvF3(s.LittleRate)
		}
	}
	return out
}

// serverCPUsAllCells are a variant's "all" row cells of
// serverCPUsColumns: server_other_load "K of N reps" when any repetition
// had it, shared_cpus the ways the server's CPUs were shared with the
// count (VariantSummary.ServerShared), not_saturated "K of N reps" when
// any repetition was judged; the rest empty.
func serverCPUsAllCells(vs *analysis.VariantSummary) []string {
	out := make([]string, len(serverCPUsColumns))
	if vs.ServerOtherLoadReps > 0 {
		out[4] = fmt.Sprintf("%d of %d reps", vs.ServerOtherLoadReps, vs.Stats.N)
	}
	if vs.ServerSharedReps > 0 {
		out[5] = fmt.Sprintf("%s (%d of %d reps)", strings.Join(vs.ServerShared, "; "), vs.ServerSharedReps, vs.Stats.N)
	}
	if vs.SaturationReps > 0 {
		out[6] = fmt.Sprintf("%d of %d reps", vs.NotSaturatedReps, vs.SaturationReps)
	}
	return out
}
