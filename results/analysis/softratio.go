package analysis

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
)

// SoftRatioEnv is the variable that sets the share of signatures kept in
// software, in percent (KAE's; the built-in target's accelerator reads it).
const SoftRatioEnv = "KAE_GO_SOFT_RATIO"

// SoftRatio fits the two-server model (package softratio) to the run's
// windows at two or more soft ratios and predicts the best; nil when the
// run has no such windows. A window that measured the client or shared
// CPUs gives the CPU per request only.
func SoftRatio(m *Report) *softratio.Prediction {
	var in softratio.Input
	var ratios []float64
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil || pct < 0 || pct > 100 || v.Env["KAELOAD_ACCEL"] == "off" {
			continue
		}
		for j := range v.Reps {
			if w, ok := ratioWindow(&v.Reps[j], &m.Reps[i][j], pct/100); ok {
				in.Windows = append(in.Windows, w)
				if !slices.Contains(ratios, w.Ratio) {
					ratios = append(ratios, w.Ratio)
				}
			}
		}
	}
	if len(ratios) < 2 {
		return nil
	}
	if c := planCapacity(m.Run.Plan); c > 0 {
		in.Capacity, in.CapacityFrom = c, softratio.FromScenario
	}
	p := softratio.Predict(in)
	return &p
}

// ratioWindow is a repetition as the model reads it; false without the
// server's CPU time.
func ratioWindow(rep *results.Rep, ra *RepReport, ratio float64) (softratio.Window, bool) {
	u := ra.ServerCPUs
	if rep.Failed != nil || rep.ServerCPU == nil || rep.Total.Requests == 0 || u == nil || !u.HasServer {
		return softratio.Window{}, false
	}
	return softratio.Window{
		Ratio: ratio, Rate: rep.Total.Rate(), CPUPerRequest: rep.ServerCPU.Seconds / float64(rep.Total.Requests),
		Busy: u.Server, CPUs: len(cpuList(u.CPUs)), Saturated: u.Server >= results.ServerSaturatedBusy,
		OtherBound: ra.Flagged(),
	}, true
}

// planCapacity is the built-in target's accelerator capacity in the
// stored plan; 0 when it has none.
func planCapacity(plan json.RawMessage) float64 {
	var p struct {
		Target struct {
			Builtin *struct {
				Accel *struct {
					Capacity float64 `json:"capacity"`
				} `json:"accel"`
			} `json:"builtin"`
		} `json:"target"`
	}
	if json.Unmarshal(plan, &p) != nil || p.Target.Builtin == nil || p.Target.Builtin.Accel == nil {
		return 0
	}
	return p.Target.Builtin.Accel.Capacity
}

// softRatioNote is the prediction as the reports say it.
func softRatioNote(p *softratio.Prediction) notes.Note {
	return notes.New(notes.SoftRatio, "prediction", *p)
}
