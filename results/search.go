package results

import (
	"slices"
)

// Objective is what a search maximizes (Search.Maximize). The plan's
// compiler resolves the scenario's spellings to one of these.
type Objective string

// The objectives of a search.
const (
	// ObjectiveRate is the window's total rate (req/s).
	ObjectiveRate Objective = "req/s"
	// ObjectiveRatePerCPU is requests per server CPU-second: what an
	// offload saves.
	ObjectiveRatePerCPU Objective = "req/s per server CPU-second"
	// ObjectiveP99 maximizes −p99 of the handshake time: the window's
	// score is 1/p99, so the search's log-scale test compares p99s.
	ObjectiveP99 Objective = "-p99 handshake"
)

// Search is a run's search of one variable (a scenario's
// variants[].search): which grid it could visit, what it maximized, its
// budget, and the windows it measured in visit order. The visited values
// are ordinary variants of the run (Series, Sweep), so every report shows
// their repetitions; a value not visited has no variant.
type Search struct {
	// Series is the variant name template; Key the searched variable.
	Series string `json:"series"`
	Key    string `json:"key"`
	// Values is the grid, in order.
	Values []string `json:"values"`
	// Maximize is the objective: ObjectiveRate, ObjectiveRatePerCPU or
	// ObjectiveP99.
	Maximize Objective `json:"maximize"`
	// Budget is the most windows the search measures.
	Budget int `json:"budget"`
	// Visits are the search's windows in the order they finished.
	Visits []Visit `json:"visits,omitempty"`
	// Start is "predicted" when the search started from the soft-ratio
	// prediction, "" for the coarse pass.
	Start string `json:"start,omitempty"`
}

// Visit is one window of a search.
type Visit struct {
	// Value is the searched variable's value; Variant the variant's name.
	Value   string `json:"value"`
	Variant string `json:"variant"`
	// Rep is the repetition's Index within its variant.
	Rep int `json:"rep"`
}

// Clone copies s and its visits; nil stays nil.
func (s *Search) Clone() *Search {
	if s == nil {
		return nil
	}
	cp := *s
	cp.Values = slices.Clone(s.Values)
	cp.Visits = slices.Clone(s.Visits)
	return &cp
}

// Member reports whether v is one of the search's variants.
func (s *Search) Member(v *Variant) bool { return v.Series == s.Series && v.Sweep != nil }

// Visit returns the Visit of repetition rep of v.
func (s *Search) Visit(v *Variant, rep *Rep) Visit {
	return Visit{Value: v.Sweep[s.Key], Variant: v.Name, Rep: rep.Index}
}

// SearchScore is a window's score under objective: positive, higher is
// better. req/s is the total rate; req/s per server CPU-second needs the
// server's CPU time; −p99 handshake scores 1/p99 (in 1/s), so that the
// log-scale test compares p99s. ok is false when the window has no such
// figure (then the score is 0, the worst).
func SearchScore(objective Objective, rep *Rep) (score float64, ok bool) {
	t := &rep.Total
	switch objective {
	case ObjectiveRatePerCPU:
		if rep.ServerCPU == nil || rep.ServerCPU.Seconds <= 0 {
			return 0, false
		}
		return float64(t.Succeeded()) / rep.ServerCPU.Seconds, true
	case ObjectiveP99:
		h := t.Latency.Handshake
		if EmptyHistogram(h) {
			return 0, false
		}
		us := h.ValueAtQuantile(99)
		if us <= 0 {
			return 0, false
		}
		return 1e6 / float64(us), true
	}
	r := t.Rate()
	return r, r > 0
}
