package analysis

import (
	"github.com/kaeload/kaeload/results"
)

// Spread is how evenly one repetition's groups performed: their lowest,
// highest (by Group.Index) and mean rates, and (Max-Min)/Mean in %.
type Spread struct {
	Min, Max           float64
	MinIndex, MaxIndex int
	Mean               float64
	Pct                float64
}

// GroupSpread returns the groups' Spread; zero for none.
func GroupSpread(groups []results.Group) Spread {
	if len(groups) == 0 {
		return Spread{}
	}
	var s Spread
	var sum float64
	for i := range groups {
		r := groups[i].Rate()
		sum += r
		if i == 0 || r < s.Min {
			s.Min, s.MinIndex = r, groups[i].Index
		}
		if i == 0 || r > s.Max {
			s.Max, s.MaxIndex = r, groups[i].Index
		}
	}
	s.Mean = sum / float64(len(groups))
	if s.Mean > 0 {
		s.Pct = (s.Max - s.Min) / s.Mean * 100
	}
	return s
}
