package analysis

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ProbeSummary is one probe's deltas over a variant's repetitions.
type ProbeSummary struct {
	Name       string  `json:"name"`
	N          int     `json:"n"` // readings that succeeded
	Failed     int     `json:"failed,omitempty"`
	FirstError string  `json:"first_error,omitempty"`
	MeanDelta  float64 `json:"mean_delta"` // of the good deltas
	// PerRequest is their sum over the same repetitions' requests (1.0: every handshake offloaded).
	PerRequest    float64 `json:"-"`
	HasPerRequest bool    `json:"-"`
}

func summarizeProbes(v *results.Variant) []ProbeSummary {
	probes, sums, reqs := map[string]*ProbeSummary{}, map[string]float64{}, map[string]uint64{}
	for _, rep := range v.Reps {
		for name, pr := range rep.Probes {
			p := probes[name]
			if p == nil {
				p = &ProbeSummary{Name: name}
				probes[name] = p
			}
			if pr.Error != "" {
				if p.Failed++; p.Failed == 1 {
					p.FirstError = pr.Error
				}
				continue
			}
			p.N++
			sums[name] += pr.Delta()
			reqs[name] += rep.Total.Requests
		}
	}
	var out []ProbeSummary
	for _, name := range slices.Sorted(maps.Keys(probes)) {
		p := *probes[name]
		if p.N > 0 {
			p.MeanDelta = sums[name] / float64(p.N)
		}
		if reqs[name] > 0 {
			p.PerRequest, p.HasPerRequest = sums[name]/float64(reqs[name]), true
		}
		out = append(out, p)
	}
	return out
}

// probeWarnings: a failed probe leaves no delta and crosses its thresholds, so every output says so.
func probeWarnings(vs []VariantSummary) notes.List {
	type acc struct {
		failed, read int
		variants     []string
		first        string
	}
	byName := map[string]*acc{}
	for _, v := range vs {
		for _, p := range v.Probes {
			a := byName[p.Name]
			if a == nil {
				a = &acc{}
				byName[p.Name] = a
			}
			a.read, a.failed = a.read+p.N+p.Failed, a.failed+p.Failed
			if p.Failed > 0 {
				a.first = cmp.Or(a.first, p.FirstError)
				a.variants = append(a.variants, v.Name)
			}
		}
	}
	var ws notes.List
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if a := byName[name]; a.failed > 0 {
			ws = append(ws, notes.New(notes.ProbeFailed, "probe", name, "failed", a.failed, "read", a.read, "variants", a.variants, "first", a.first))
		}
	}
	return ws
}

// MarshalJSON writes p with per_request last, left out without requests.
func (p ProbeSummary) MarshalJSON() ([]byte, error) {
	type plain ProbeSummary
	var per *float64
	if p.HasPerRequest {
		per = &p.PerRequest
	}
	return json.Marshal(struct {
		plain
		PerRequest *float64 `json:"per_request,omitempty"`
	}{plain(p), per})
}
