package analysis

import (
	"github.com/kaeload/kaeload/results"
)

// Spread summarises how evenly the groups of one repetition performed, by
// their rates (Group.Rate).
type Spread struct {
	// Min and Max are the lowest and highest group rates (req/s), and
	// MinIndex and MaxIndex the Group.Index of the groups that had them.
	Min, Max           float64
	MinIndex, MaxIndex int
	// Mean is the mean group rate (req/s).
	Mean float64
	// Pct is (Max-Min)/Mean in percent; 0 when Mean is 0.
	Pct float64
}

// GroupSpread returns the Spread of the groups' rates; the zero Spread for
// no groups.
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
