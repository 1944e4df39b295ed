package results

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// The kinds of Change, as a journal line names them.
const (
	ChangeBegin       = "begin" // Run: the header, every planned variant, no repetition
	ChangeRep         = "rep"
	ChangePartial     = "partial"  // Variant.Partial
	ChangeExcluded    = "excluded" // Variant.Excluded
	ChangeSpeed       = "speed"
	ChangeInfo        = "info"
	ChangeWarning     = "warning"
	ChangeNotMeasured = "not_measured"
	ChangeEnd         = "end"
	ChangeResume      = "resume" // run --resume continues after the end
	ChangeMetrics     = "metrics"
)

// Change is one change to a run's record, as the runner makes it and a journal line holds it;
// Variant indexes the header's variants.
type Change struct {
	Type        string     `json:"type"`
	Run         *Run       `json:"run,omitempty"`
	Variant     int        `json:"variant"`
	Rep         *Rep       `json:"rep,omitempty"`
	Speed       []SpeedRun `json:"speed,omitempty"`
	Info        []InfoRun  `json:"info,omitempty"`
	Warning     *Warning   `json:"warning,omitempty"`
	Reason      string     `json:"reason,omitempty"`
	Finished    time.Time  `json:"finished,omitzero"`
	Interrupted bool       `json:"interrupted,omitempty"`
	Metrics     *Metrics   `json:"metrics,omitempty"`
}

// Apply makes change c to r: the one way the record changes, live and in a journal's replay.
func (r *Run) Apply(c Change) error {
	var v *Variant
	switch c.Type { // those that name a variant; the first three a window
	case ChangeRep, ChangeExcluded, ChangePartial, ChangeInfo, ChangeSpeed, ChangeNotMeasured:
		if c.Variant < 0 || c.Variant >= len(r.Variants) {
			return fmt.Errorf("journal: %s record for variant %d, the run has %d", c.Type, c.Variant, len(r.Variants))
		}
		v = &r.Variants[c.Variant]
	}
	if c.Rep == nil && (c.Type == ChangeRep || c.Type == ChangeExcluded || c.Type == ChangePartial) {
		return fmt.Errorf("journal: %s record without a window", c.Type)
	}
	switch c.Type {
	case ChangeBegin:
		if c.Run == nil {
			return errors.New("journal: begin record without the run")
		}
		if err := c.Run.CheckSchema(); err != nil {
			return err
		}
		*r = *c.Run
		r.Incomplete = true // until the end
	case ChangeRep: // a resumed run's window replaces the partial one and its warning
		v.Reps = append(v.Reps, *c.Rep)
		v.Partial = without(v.Partial, func(p Rep) bool { return p.Index == c.Rep.Index })
		index := strconv.Itoa(c.Rep.Index) // Args["index"] is an int, or a float64 as JSON reads it
		r.Warnings = without(r.Warnings, func(w Warning) bool {
			return w.Code == WarnInterrupted && w.Args["variant"] == v.Name && fmt.Sprint(w.Args["index"]) == index
		})
		if s := r.Search; s != nil && s.Member(v) {
			s.Visits = append(s.Visits, s.Visit(v, c.Rep))
		}
	case ChangeExcluded:
		v.Excluded = append(v.Excluded, *c.Rep)
	case ChangePartial: // replacing an earlier try
		v.Partial = append(without(v.Partial, func(p Rep) bool { return p.Index == c.Rep.Index }), *c.Rep)
	case ChangeInfo:
		v.Info = c.Info
	case ChangeSpeed:
		v.Speed = c.Speed
	case ChangeWarning:
		if c.Warning != nil {
			r.Warnings = r.Warnings.AppendNew(*c.Warning)
		}
	case ChangeNotMeasured:
		nm := NotMeasured{Variant: v.Name, Reason: c.Reason}
		if i := slices.IndexFunc(r.NotMeasured, func(n NotMeasured) bool { return n.Variant == v.Name }); i >= 0 {
			r.NotMeasured[i] = nm
		} else {
			r.NotMeasured = append(r.NotMeasured, nm)
		}
	case ChangeMetrics:
		r.Metrics = c.Metrics
	case ChangeEnd:
		r.Finished, r.Interrupted, r.Incomplete = c.Finished, c.Interrupted, false
	case ChangeResume:
		r.Finished, r.Interrupted, r.Incomplete = time.Time{}, false, true
		r.NotMeasured = nil // tried again
	default:
		return fmt.Errorf("journal: unknown record type %q", c.Type)
	}
	return nil
}

// without is s less what drop matches, in a new slice (copies of the run may share s); nil if empty.
func without[T any](s []T, drop func(T) bool) []T {
	if s = slices.DeleteFunc(slices.Clone(s), drop); len(s) == 0 {
		return nil
	}
	return s
}

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
