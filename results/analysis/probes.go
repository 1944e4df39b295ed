package analysis

import (
	"maps"
	"slices"
	"sort"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ProbeSummary is one probe's deltas over a variant's repetitions.
type ProbeSummary struct {
	Name string `json:"name"`
	// N readings succeeded, Failed failed (FirstError the first's message).
	N          int    `json:"n"`
	Failed     int    `json:"failed,omitempty"`
	FirstError string `json:"first_error,omitempty"`
	// MeanDelta is the mean of the good deltas.
	MeanDelta float64 `json:"mean_delta"`
	// PerRequest is their sum over the same repetitions' requests (1.0
	// hardware operations per request: every handshake offloaded).
	PerRequest    float64 `json:"-"`
	HasPerRequest bool    `json:"-"`
}

// summarizeProbes sums up v's probe deltas by probe name, sorted by name.
func summarizeProbes(v *results.Variant) []ProbeSummary {
	type probeAcc struct {
		ProbeSummary
		sum  float64
		reqs uint64
	}
	probes := map[string]*probeAcc{}
	for i := range v.Reps {
		for name, pr := range v.Reps[i].Probes {
			a := probes[name]
			if a == nil {
				a = &probeAcc{ProbeSummary: ProbeSummary{Name: name}}
				probes[name] = a
			}
			if pr.Error != "" {
				if a.Failed == 0 {
					a.FirstError = pr.Error
				}
				a.Failed++
				continue
			}
			a.N++
			a.sum += pr.Delta()
			a.reqs += v.Reps[i].Total.Requests
		}
	}
	var out []ProbeSummary
	for _, a := range probes {
		p := a.ProbeSummary
		if p.N > 0 {
			p.MeanDelta = a.sum / float64(p.N)
		}
		if a.reqs > 0 {
			p.PerRequest, p.HasPerRequest = a.sum/float64(a.reqs), true
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ProbeWarnings is one warning per probe of r that failed in any window:
// how often, in which variants, the first error. A failed probe leaves no
// delta and crosses its thresholds, so every output says so on top.
func ProbeWarnings(r *results.Run) notes.List {
	type acc struct {
		failed, read int
		variants     []string
		first        string
	}
	byName := map[string]*acc{}
	for i := range r.Variants {
		for _, p := range summarizeProbes(&r.Variants[i]) {
			a := byName[p.Name]
			if a == nil {
				a = &acc{}
				byName[p.Name] = a
			}
			a.read += p.N + p.Failed
			if p.Failed > 0 {
				if a.failed == 0 {
					a.first = p.FirstError
				}
				a.failed += p.Failed
				a.variants = append(a.variants, r.Variants[i].Name)
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
