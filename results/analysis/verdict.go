package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"strings"
)

// CheckRep says whether the repetition whose total is t failed, and why:
// it fails when its window completed no successful request (a server that
// is down, accepts and never answers, or answers only with errors), or when
// the share of failed attempts (Counts.ErrorShare) exceeds maxErrors
// (0 tolerates no error). It returns "" for a good repetition.
// A failed repetition is a measurement, not a figure to trust: every
// rendering marks it, and `kaeload run` exits non-zero.
func CheckRep(t *results.Group, maxErrors float64) string {
	if t.Succeeded() == 0 {
		var why []string
		if n := t.Errors.Total(); n > 0 {
			why = append(why, fmt.Sprintf("%s errors", format.Count(n)))
		}
		if u := t.Outside.Unanswered; u.Total() > 0 {
			why = append(why, "unanswered at the window's end: "+UnansweredLine(u))
		}
		if len(why) == 0 {
			why = append(why, "no request ended at all")
		}
		return "no request succeeded in the window (" + strings.Join(why, "; ") + ")"
	}
	if share := t.ErrorShare(); share > maxErrors {
		return fmt.Sprintf("errors were %s of the window's attempts, more than max_errors %s", format.Share(share), format.Share(maxErrors))
	}
	return ""
}

// UnansweredLine describes requests left unanswered by stage, e.g.
// "4 (connect 0, handshake 4, response 0)".
func UnansweredLine(u results.Stages) string {
	return fmt.Sprintf("%s (connect %s, handshake %s, response %s)",
		format.Count(u.Total()), format.Count(u.Connect), format.Count(u.Handshake), format.Count(u.Response))
}

// variantFailed reports whether any repetition of v failed (Rep.Failed).
func variantFailed(v *results.Variant) int {
	n := 0
	for i := range v.Reps {
		if v.Reps[i].Failed != "" {
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

// NotMeasuredLines returns one line per variant the run could not
// measure (Run.NotMeasured), in the order they failed, as every report
// shows it after "NOT MEASURED:": "variant b: server start failed: …", or
// "variant b after 2 repetitions: …" when some repetitions were measured
// before the failure. Nil when every variant ran.
func NotMeasuredLines(r *results.Run) []string {
	var lines []string
	for _, nm := range r.NotMeasured {
		n := 0
		for i := range r.Variants {
			if r.Variants[i].Name == nm.Variant {
				n = len(r.Variants[i].Reps)
			}
		}
		switch n {
		case 0:
			lines = append(lines, fmt.Sprintf("variant %s: %s", nm.Variant, nm.Reason))
		case 1:
			lines = append(lines, fmt.Sprintf("variant %s after 1 repetition: %s", nm.Variant, nm.Reason))
		default:
			lines = append(lines, fmt.Sprintf("variant %s after %d repetitions: %s", nm.Variant, n, nm.Reason))
		}
	}
	return lines
}

// FailedLine is the loud line of a failed repetition, "" for a good one.
func FailedLine(rep *results.Rep) string {
	if rep.Failed == "" {
		return ""
	}
	return "FAILED: " + rep.Failed
}

// BackoffLine is the line of a repetition in which connection slots
// backed off after failed connects (Counts.Backoffs), "" when none did.
func BackoffLine(rep *results.Rep) string {
	t := &rep.Total
	if t.Backoffs == 0 {
		return ""
	}
	fails := t.Errors[results.ErrConnect].Count + t.Errors[results.ErrPorts].Count
	return fmt.Sprintf("BACKED OFF: connection slots waited %s times before their next try because their connects kept failing (%s connect errors, counted as usual): the server refused or was unreachable",
		format.Count(t.Backoffs), format.Count(fails))
}

// failedWarnings returns one warning per failed repetition of r.
func failedWarnings(r *results.Run) []string { return repWarnings(r, FailedLine) }
