package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// CheckRep says whether the repetition whose total is t failed, and why:
// no successful request in its window, or a share of failed attempts
// (Counts.ErrorShare) above maxErrors (0 tolerates none). Nil for a good
// repetition. Every rendering marks a failed one, and `kaeload run`
// exits non-zero.
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

// UnansweredLine describes requests left unanswered by stage, e.g.
// "4 (connect 0, handshake 4, response 0)".
func UnansweredLine(u results.Stages) string { return notes.Unanswered(u) }

// variantFailed reports whether any repetition of v failed (Rep.Failed).
func variantFailed(v *results.Variant) int {
	n := 0
	for i := range v.Reps {
		if v.Reps[i].Failed != nil {
			n++
		}
	}
	return n
}

// Failed returns the names of the variants with a failed repetition, in
// run order; nil when none failed.
func Failed(r *results.Run) []string {
	var names []string
	for i := range r.Variants {
		if variantFailed(&r.Variants[i]) > 0 {
			names = append(names, r.Variants[i].Name)
		}
	}
	return names
}

// NotMeasuredLines returns one note per variant the run could not
// measure (Run.NotMeasured), in the order they failed, with the
// repetitions measured before: "variant b after 2 repetitions: …".
func NotMeasuredLines(r *results.Run) notes.List {
	var lines notes.List
	for _, nm := range r.NotMeasured {
		n := 0
		for i := range r.Variants {
			if r.Variants[i].Name == nm.Variant {
				n = len(r.Variants[i].Reps)
			}
		}
		lines = append(lines, notes.New(notes.NotMeasured, "variant", nm.Variant, "reps", n, "reason", nm.Reason))
	}
	return lines
}

// FailedLine is the loud line of a failed repetition, the zero Note for
// a good one.
func FailedLine(rep *results.Rep) notes.Note {
	if rep.Failed == nil {
		return notes.Note{}
	}
	return notes.New(notes.RepFailed, "why", notes.Failure(rep.Failed))
}

// BackoffLine is the line of a repetition in which connection slots
// backed off after failed connects (Counts.Backoffs); zero when none did.
func BackoffLine(rep *results.Rep) notes.Note {
	t := &rep.Total
	if t.Backoffs == 0 {
		return notes.Note{}
	}
	return notes.New(notes.BackedOff, "backoffs", t.Backoffs, "fails", t.Errors[results.ErrConnect].Count+t.Errors[results.ErrPorts].Count)
}
