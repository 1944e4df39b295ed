package results

import "slices"

// Objective is what a search maximizes (Search.Maximize).
type Objective string

// The objectives of a search (see SearchScore).
const (
	ObjectiveRate       Objective = "req/s"
	ObjectiveRatePerCPU Objective = "req/s per server CPU-second" // what an offload saves
	ObjectiveP99        Objective = "-p99 handshake"
)

// Search is a run's search of one variable (variants[].search); its values are ordinary variants.
type Search struct {
	Series   string    `json:"series"` // the variant name template
	Key      string    `json:"key"`    // the searched variable
	Values   []string  `json:"values"` // the grid, in order
	Maximize Objective `json:"maximize"`
	Budget   int       `json:"budget"` // the most windows measured
	Visits   []Visit   `json:"visits,omitempty"`
	Start    string    `json:"start,omitempty"` // "predicted" from the soft ratio; "" the coarse pass
}

// Visit is one window of a search, in the order they finished.
type Visit struct {
	Value   string `json:"value"`
	Variant string `json:"variant"`
	Rep     int    `json:"rep"` // Rep.Index
}

// Member reports whether v is one of the search's variants: its series, a value on the grid (an entry
// swept under the same name template is not).
func (s *Search) Member(v *Variant) bool {
	return v.Series == s.Series && v.Sweep != nil && slices.Contains(s.Values, v.Sweep[s.Key])
}

// Visit returns the Visit of repetition rep of v.
func (s *Search) Visit(v *Variant, rep *Rep) Visit {
	return Visit{Value: v.Sweep[s.Key], Variant: v.Name, Rep: rep.Index}
}

// SearchScore is a window's score under objective, higher better (−p99 scores 1/p99); false if none.
func SearchScore(objective Objective, rep *Rep) (score float64, ok bool) {
	t := &rep.Total
	switch objective {
	case ObjectiveRatePerCPU:
		if rep.ServerCPU == nil || rep.ServerCPU.Seconds <= 0 {
			return 0, false
		}
		return float64(t.Succeeded()) / rep.ServerCPU.Seconds, true
	case ObjectiveP99:
		if h := t.Latency.Handshake; !EmptyHistogram(h) && h.ValueAtQuantile(99) > 0 {
			return 1e6 / float64(h.ValueAtQuantile(99)), true
		}
		return 0, false
	}
	r := t.Rate()
	return r, r > 0
}
