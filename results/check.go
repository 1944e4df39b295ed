package results

import (
	"errors"
	"fmt"
)

// MaxRepeat bounds the repetitions a plan may ask of one variant.
const MaxRepeat = 1000

// maxGroups bounds a group's index: far above any machine's CPU count.
const maxGroups = 1 << 16

// Check rejects indices no kaeload run writes, so that a damaged file is an
// error naming the field, never an unbounded allocation or loop.
func (r *Run) Check() error {
	var errs []error
	for i := range r.Variants {
		v := &r.Variants[i]
		// Re-measured windows add to the plan's count.
		limit := MaxRepeat + len(v.Reps) + len(v.Partial) + len(v.Excluded)
		for _, set := range []struct {
			kind string
			reps []Rep
		}{{"reps", v.Reps}, {"partial", v.Partial}, {"excluded", v.Excluded}} {
			for j := range set.reps {
				if err := set.reps[j].check(limit); err != nil {
					errs = append(errs, fmt.Errorf("variants[%d] (%s).%s[%d]: %w", i, v.Name, set.kind, j, err))
				}
			}
		}
	}
	if s := r.Search; s != nil {
		for k, vis := range s.Visits {
			if vis.Rep < 0 || vis.Rep >= MaxRepeat+len(s.Visits) {
				errs = append(errs, fmt.Errorf("search.visits[%d].rep: %d is out of range", k, vis.Rep))
			}
		}
	}
	if len(errs) > 5 {
		errs = append(errs[:5], fmt.Errorf("and %d more", len(errs)-5))
	}
	return errors.Join(errs...)
}

func (rep *Rep) check(limit int) error {
	if rep.Index < 0 || rep.Index >= limit {
		return fmt.Errorf("index %d is out of range (0 to %d)", rep.Index, limit-1)
	}
	for g := range rep.Groups {
		if idx := rep.Groups[g].Index; idx < 0 || idx >= maxGroups {
			return fmt.Errorf("groups[%d].index %d is out of range", g, idx)
		}
	}
	return nil
}
