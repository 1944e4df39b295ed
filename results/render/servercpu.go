package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/notes"
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
		out[5] = fmt.Sprintf("%s (%d of %d reps)", strings.Join(vs.ServerShared.Strings(), "; "), vs.ServerSharedReps, vs.Stats.N)
	}
	if vs.SaturationReps > 0 {
		out[6] = fmt.Sprintf("%d of %d reps", vs.NotSaturatedReps, vs.SaturationReps)
	}
	return out
}

// ServerCPUsVariantJSON is a variant's server-side verdicts in a
// SummaryJSON (VariantSummary.ServerSharedReps and the fields beside it).
type ServerCPUsVariantJSON struct {
	// OtherLoadReps counts the repetitions with OTHER LOAD on the
	// server's CPUs, SharedCPUReps those in which a client group ran on
	// them, SharedReps those with either; Shared says how; SharedInMost
	// is true when that was most of the repetitions (a verdict then
	// says "shared CPUs").
	OtherLoadReps int      `json:"other_load_reps"`
	SharedCPUReps int      `json:"shared_cpu_reps"`
	SharedReps    int      `json:"shared_reps"`
	Shared        []string `json:"shared,omitempty"`
	SharedInMost  bool     `json:"shared_in_most"`
	// SaturationReps counts the repetitions judged for saturation,
	// NotSaturatedReps those NOT SATURATED.
	SaturationReps   int `json:"saturation_reps"`
	NotSaturatedReps int `json:"not_saturated_reps"`
}

// ServerCPUsJSON is how the server's CPUs were used in a repetition
// (results.ServerCPUUse): shares of their time 0..1, absent when not read.
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
	Shared     []SharedCPUJSON      `json:"shared,omitempty"`
	// Lines are the repetition's OTHER LOAD on the server and SHARED
	// CPUS lines (RepReport), those it has.
	Lines []string `json:"lines,omitempty"`
}

// SharedCPUJSON is a client group on the server's CPUs.
type SharedCPUJSON struct {
	Group  int    `json:"group"`
	CPUs   string `json:"cpus"`
	Common string `json:"common"`
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

// serverRepJSON adds a repetition's server's CPUs and saturation to rj.
func serverRepJSON(rj *RepJSON, ra *analysis.RepReport) {
	if u := ra.ServerCPUs; u != nil {
		sj := &ServerCPUsJSON{CPUs: u.CPUs, Host: u.Host, Busiest: u.Top, OtherLoad: u.OtherLoad}
		if u.Measured {
			f := func(x float64) *float64 { return &x }
			sj.Busy, sj.Kaeload, sj.Interrupts, sj.Others = f(u.Busy), f(u.Kaeload), f(u.Interrupts), f(u.Others)
			if u.HasServer {
				sj.Server = f(u.Server)
			}
		}
		for _, s := range u.Shared {
			sj.Shared = append(sj.Shared, SharedCPUJSON{Group: s.Group, CPUs: s.CPUs, Common: s.Common})
		}
		for _, l := range (notes.List{ra.ServerOtherLoad, ra.SharedCPUs}).Strings() {
			if l != "" {
				sj.Lines = append(sj.Lines, l)
			}
		}
		rj.ServerCPUs = sj
	}
	if s := ra.Saturation; s.Judged {
		sj := &SaturationJSON{ServerBusy: s.Server, ClientBound: s.ClientBound, Accelerator: s.Accelerator, Connections: s.Connections,
			MeanLatencyMs: s.MeanLatency.Seconds() * 1e3, LittleReqPerS: s.LittleRate, ReqPerS: s.Rate, NotSaturated: s.NotSaturated, Line: ra.NotSaturated.String()}
		if s.HasCPUsBusy {
			b := s.CPUsBusy
			sj.CPUsBusy = &b
		}
		rj.Saturation = sj
	}
}
