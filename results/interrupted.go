package results

import (
	"fmt"
	"slices"
	"strings"
)

// interruptedSuffix ends the warning for a window an interrupt cut short.
const interruptedSuffix = " was interrupted and is not included"

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

// InterruptedWarning is the warning for the window named label
// (RepLabel, SearchWindowLabel, a capacity step's) that an interrupt cut
// short: "variant kae rep 2/3 was interrupted and is not included". It
// holds until the window is measured: AddRep, and the journal, withdraw
// it when a repetition of the same variant and index is recorded, as a
// resumed run does.
func InterruptedWarning(label string) string { return label + interruptedSuffix }

// AddRep appends rep to the variant at index variant and withdraws the
// InterruptedWarning of the same window (RepLabel or SearchWindowLabel of
// rep.Index): a resumed run measured it, and a report must not say it is
// missing.
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

// withdrawInterrupted drops the InterruptedWarning of repetition index of
// the variant name from r.Warnings, whatever the repetition count in its
// label. The slice is rebuilt, not changed in place: copies of the run
// may share it.
func (r *Run) withdrawInterrupted(name string, index int) {
	repPrefix := fmt.Sprintf("variant %s rep %d/", name, index+1)
	search := InterruptedWarning(SearchWindowLabel(name, index))
	stale := func(w string) bool {
		if w == search {
			return true
		}
		rest, ok := strings.CutPrefix(w, repPrefix)
		if !ok {
			return false
		}
		n, ok := strings.CutSuffix(rest, interruptedSuffix)
		return ok && n != "" && strings.Trim(n, "0123456789") == ""
	}
	var kept []string
	drop := false
	for _, w := range r.Warnings {
		if stale(w) {
			drop = true
			continue
		}
		kept = append(kept, w)
	}
	if drop {
		r.Warnings = kept
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
