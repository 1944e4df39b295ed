package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

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
	var names []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for name, pr := range v.Reps[j].Probes {
				a := byName[name]
				if a == nil {
					a = &acc{}
					byName[name] = a
					names = append(names, name)
				}
				a.read++
				if pr.Error == "" {
					continue
				}
				if a.failed == 0 {
					a.first = pr.Error
				}
				a.failed++
				if n := len(a.variants); n == 0 || a.variants[n-1] != v.Name {
					a.variants = append(a.variants, v.Name)
				}
			}
		}
	}
	var ws notes.List
	slices.Sort(names)
	for _, name := range names {
		a := byName[name]
		if a.failed == 0 {
			continue
		}
		ws = append(ws, notes.New(notes.ProbeFailed, "probe", name, "failed", a.failed, "read", a.read, "variants", a.variants, "first", a.first))
	}
	return ws
}
