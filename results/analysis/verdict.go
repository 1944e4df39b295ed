package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// CheckRep says why the repetition whose total is t failed (no success, or
// an error share above maxErrors); nil for a good one.
func CheckRep(t *results.Group, maxErrors float64) *results.Failure {
	if t.Succeeded() == 0 {
		f := &results.Failure{Code: results.FailNoSuccess, Errors: t.Errors.Total()}
		if u := t.Outside.Unanswered; u.Total() > 0 {
			f.Unanswered = &u
		}
		return f
	}
	if share := t.ErrorShare(); share > maxErrors {
		return &results.Failure{Code: results.FailErrors, Share: share, Max: maxErrors}
	}
	return nil
}

// Failed names the variants with a failed repetition, in run order.
func Failed(r *results.Run) []string {
	var names []string
	for _, v := range r.Variants {
		if slices.ContainsFunc(v.Reps, func(rep results.Rep) bool { return rep.Failed != nil }) {
			names = append(names, v.Name)
		}
	}
	return names
}

// NotMeasuredLines is one note per variant the run could not measure, with
// the repetitions measured before: "variant b after 2 repetitions: …".
func NotMeasuredLines(r *results.Run) notes.List {
	var lines notes.List
	for _, nm := range r.NotMeasured {
		n := 0
		if v := findVariant(r, nm.Variant); v != nil {
			n = len(v.Reps)
		}
		lines = append(lines, notes.New(notes.NotMeasured, "variant", nm.Variant, "reps", n, "reason", nm.Reason))
	}
	return lines
}

// FailedLine is a failed repetition's loud line; zero for a good one.
func FailedLine(rep *results.Rep) notes.Note {
	if rep.Failed == nil {
		return notes.Note{}
	}
	return notes.New(notes.RepFailed, "why", notes.Failure(rep.Failed))
}

// BackoffLine says that slots backed off after failed connects; zero when
// none did.
func BackoffLine(rep *results.Rep) notes.Note {
	t := &rep.Total
	if t.Backoffs == 0 {
		return notes.Note{}
	}
	return notes.New(notes.BackedOff, "backoffs", t.Backoffs, "fails", t.Errors[results.ErrConnect].Count+t.Errors[results.ErrPorts].Count)
}
