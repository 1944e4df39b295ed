package analysis

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
)

const (
	// SoftRatioEnv sets the % of signatures kept in software (KAE's; the built-in accelerator's too).
	SoftRatioEnv = "KAE_GO_SOFT_RATIO"
	versionTLS13 = 0x0304 // crypto/tls.VersionTLS13 (results imports no TLS)
)

// SoftRatio predicts the best soft ratio from windows at two or more; a flagged one gives only its CPU.
func SoftRatio(m *Report) *softratio.Prediction {
	var in softratio.Input
	ratios := map[float64]bool{}
	for i := range m.Run.Variants {
		v := &m.Run.Variants[i]
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil || pct < 0 || pct > 100 || v.Env["KAELOAD_ACCEL"] == "off" {
			continue
		}
		for j := range v.Reps {
			rep, ra := &v.Reps[j], &m.Reps[i][j]
			u := ra.ServerCPUs // the model needs the server's CPU time
			if rep.Failed != nil || rep.ServerCPU == nil || rep.Total.Requests == 0 || u == nil || !u.HasServer {
				continue
			}
			in.Windows = append(in.Windows, softratio.Window{Ratio: pct / 100, Rate: rep.Total.Rate(),
				CPUPerRequest: rep.ServerCPU.Seconds / float64(rep.Total.Requests), Busy: u.Server,
				CPUs: len(cpuList(u.CPUs)), Saturated: u.Server >= results.ServerSaturatedBusy,
				OtherBound: ra.Flagged()})
			ratios[pct/100] = true
		}
	}
	if len(ratios) < 2 {
		return nil
	}
	if b := readPlan(m.Run.Plan).Target.Builtin; b != nil && b.Accel != nil && b.Accel.Capacity > 0 {
		in.Capacity, in.CapacityFrom = b.Accel.Capacity, softratio.FromScenario
	}
	p := softratio.Predict(in)
	return &p
}

// planView is what the analysis reads of an encoded Plan (results imports no plans).
type planView struct {
	Target struct {
		TLS *struct {
			MaxVersion uint16 `json:"max_version"`
		} `json:"tls"`
		Builtin *struct {
			Accel *struct {
				Capacity float64 `json:"capacity"`
			} `json:"accel"`
		} `json:"builtin"`
	} `json:"target"`
	Variants []struct {
		Env map[string]string `json:"env"`
	} `json:"variants"`
	Search *struct {
		First, Points int
	} `json:"search"`
}

func readPlan(raw json.RawMessage) (p planView) {
	if json.Unmarshal(raw, &p) != nil {
		return planView{}
	}
	return p
}

// Hints: max_version "1.2" for a variant that offered TLS 1.3 but negotiated only TLS 1.2.
func Hints(r *results.Run) notes.List {
	if tls := readPlan(r.Plan).Target.TLS; tls == nil || tls.MaxVersion < versionTLS13 {
		return nil
	}
	var hints notes.List
	for _, v := range r.Variants {
		n, only12 := uint64(0), true
		for _, rep := range v.Reps {
			for key, c := range rep.Total.Negotiated {
				n, only12 = n+c, only12 && strings.HasPrefix(key, "TLS1.2 ")
			}
		}
		if n > 0 && only12 {
			hints = append(hints, notes.New(notes.TLS12Hint, "variant", v.Name))
		}
	}
	return hints
}

// SearchPrediction is what start: predicted predicted, and the grid Value nearest its best ratio.
type SearchPrediction struct {
	Prediction *softratio.Prediction
	Value      string
}

// StartPrediction is what r's search started from; nil when none.
func StartPrediction(r *results.Run) *SearchPrediction {
	s := r.Search
	if s == nil || s.Start != "predicted" || len(s.Values) == 0 {
		return nil
	}
	first, last := s.Values[0], s.Values[len(s.Values)-1]
	n, seen := 0, map[string]bool{}
	for ; n < len(s.Visits) && !(seen[first] && seen[last]); n++ {
		seen[s.Visits[n].Value] = true
	}
	if !seen[first] || !seen[last] {
		return nil
	}
	cp := *r
	cp.Search, cp.Variants = nil, slices.Clone(r.Variants)
	for i := range cp.Variants {
		if v := &cp.Variants[i]; s.Member(v) {
			v.Reps = slices.DeleteFunc(slices.Clone(v.Reps), func(rep results.Rep) bool {
				return !slices.Contains(s.Visits[:n], s.Visit(v, &rep))
			})
		}
	}
	sp := &SearchPrediction{Prediction: SoftRatio(Analyze(&cp))}
	if sp.Prediction == nil {
		p := softratio.Predict(softratio.Input{})
		sp.Prediction = &p
	}
	// The grid's soft ratios (%) in the plan: the value nearest the best.
	p := readPlan(r.Plan)
	if sp.Prediction.Status != softratio.OK || p.Search == nil || p.Search.Points != len(s.Values) ||
		p.Search.First+p.Search.Points > len(p.Variants) {
		return sp
	}
	best := math.Inf(1)
	for k, v := range p.Variants[p.Search.First : p.Search.First+p.Search.Points] {
		pct, err := strconv.ParseFloat(v.Env[SoftRatioEnv], 64)
		if err != nil {
			sp.Value = ""
			break
		}
		if d := math.Abs(pct - 100*sp.Prediction.Ratio.Value); d < best {
			best, sp.Value = d, s.Values[k]
		}
	}
	return sp
}
