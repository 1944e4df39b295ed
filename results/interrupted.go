package results

import (
	"fmt"
	"slices"
)

// WarnInterrupted is the code of the warning for a window an interrupt
// cut short; its parameters variant and index (0-based) name a window a
// later repetition measures (a capacity step's has neither).
const WarnInterrupted = "interrupted"

// RepLabel names repetition index (0-based) of a variant with repeat
// repetitions, as the progress lines and warnings do: "variant kae rep
// 2/3".
func RepLabel(variant string, index, repeat int) string {
	return fmt.Sprintf("variant %s rep %d/%d", variant, index+1, repeat)
}

// SearchWindowLabel names window index (0-based) of a variant a search
// measures: "variant kae-soft-30 window 5 (search)".
func SearchWindowLabel(variant string, index int) string {
	return fmt.Sprintf("variant %s window %d (search)", variant, index+1)
}

// AddRep appends rep to the variant at index variant and withdraws the
// WarnInterrupted warning of the same window: a resumed run measured it,
// and a report must not say it is missing.
func (r *Run) AddRep(variant int, rep Rep) {
	v := &r.Variants[variant]
	v.Reps = append(v.Reps, rep)
	r.withdrawInterrupted(v.Name, rep.Index)
	// A resumed run measured the window an interrupt cut short: the
	// complete window replaces the partial one.
	v.Partial = slices.DeleteFunc(slices.Clone(v.Partial), func(p Rep) bool { return p.Index == rep.Index })
	if len(v.Partial) == 0 {
		v.Partial = nil
	}
}

// AddPartial keeps rep, a window of the variant at index variant that an
// interrupt cut short (rep.PartialOf set), in Variant.Partial: what it
// measured is shown, marked PARTIAL, and stays out of the statistics and
// of a resumed run's count. A later partial try of the same window
// replaces an earlier one.
func (r *Run) AddPartial(variant int, rep Rep) {
	v := &r.Variants[variant]
	v.Partial = append(slices.DeleteFunc(slices.Clone(v.Partial), func(p Rep) bool { return p.Index == rep.Index }), rep)
}

// withdrawInterrupted drops the WarnInterrupted warning of window index
// of the variant name. The slice is rebuilt, not changed in place: copies
// of the run may share it.
func (r *Run) withdrawInterrupted(name string, index int) {
	stale := func(w Warning) bool {
		i, ok := w.Args["index"].(float64) // as JSON reads it
		if n, isInt := w.Args["index"].(int); isInt {
			i, ok = float64(n), true
		}
		return w.Code == WarnInterrupted && w.Args["variant"] == name && ok && int(i) == index
	}
	if slices.ContainsFunc(r.Warnings, stale) {
		if r.Warnings = slices.DeleteFunc(slices.Clone(r.Warnings), stale); len(r.Warnings) == 0 {
			r.Warnings = nil
		}
	}
}

// AddExcluded keeps rep, a window of the variant at index variant that
// the exclude_flagged policy set aside (rep.Excluded says why), in
// Variant.Excluded: shown, in no statistic; the run measures the window
// again.
func (r *Run) AddExcluded(variant int, rep Rep) {
	v := &r.Variants[variant]
	v.Excluded = append(v.Excluded, rep)
}
