package results

import (
	"fmt"
	"slices"
	"strconv"
)

// WarnInterrupted is the warning code of a window an interrupt cut short (variant, 0-based index).
const WarnInterrupted = "interrupted"

// RepLabel names a repetition (index 0-based): "variant kae rep 2/3".
func RepLabel(variant string, index, repeat int) string {
	return fmt.Sprintf("variant %s rep %d/%d", variant, index+1, repeat)
}

// SearchWindowLabel names a search's window: "variant kae-soft-30 window 5 (search)".
func SearchWindowLabel(variant string, index int) string {
	return fmt.Sprintf("variant %s window %d (search)", variant, index+1)
}

// AddRep appends rep to variant; a resumed run's window replaces the partial one and its warning.
func (r *Run) AddRep(variant int, rep Rep) {
	v := &r.Variants[variant]
	v.Reps = append(v.Reps, rep)
	v.Partial = without(v.Partial, func(p Rep) bool { return p.Index == rep.Index })
	index := strconv.Itoa(rep.Index) // Args["index"] is an int, or a float64 as JSON reads it
	r.Warnings = without(r.Warnings, func(w Warning) bool {
		return w.Code == WarnInterrupted && w.Args["variant"] == v.Name && fmt.Sprint(w.Args["index"]) == index
	})
}

// AddPartial keeps rep, a window cut short, in Variant.Partial, replacing an earlier try.
func (r *Run) AddPartial(variant int, rep Rep) {
	v := &r.Variants[variant]
	v.Partial = append(without(v.Partial, func(p Rep) bool { return p.Index == rep.Index }), rep)
}

// without is s less what drop matches, in a new slice (copies of the run may share s); nil if empty.
func without[T any](s []T, drop func(T) bool) []T {
	if s = slices.DeleteFunc(slices.Clone(s), drop); len(s) == 0 {
		return nil
	}
	return s
}

// AddExcluded keeps rep, a window exclude_flagged set aside, in Variant.Excluded.
func (r *Run) AddExcluded(variant int, rep Rep) {
	r.Variants[variant].Excluded = append(r.Variants[variant].Excluded, rep)
}
