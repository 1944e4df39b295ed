package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// ProbeWarnings returns one warning per server probe of r that failed in
// any window: how many windows of how many, in which variants, and the
// first error as it was (the pattern as written, not quoted). A probe
// that fails leaves no delta, and a threshold on it is crossed: this is
// what the top of every output says about it, where it cannot be missed.
func ProbeWarnings(r *results.Run) []string {
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
	var ws []string
	slices.Sort(names)
	for _, name := range names {
		a := byName[name]
		if a.failed == 0 {
			continue
		}
		ws = append(ws, fmt.Sprintf("probe %s failed in %d of %d windows (%s %s): %s; no delta was recorded there, and a threshold on the probe is crossed",
			name, a.failed, a.read, oneOrMany(len(a.variants), "variant", "variants"), strings.Join(a.variants, ", "), format.Plain(a.first)))
	}
	return ws
}

// oneOrMany is one or many by n.
func oneOrMany(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
