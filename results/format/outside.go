package format

import (
	"strings"

	"github.com/kaeload/kaeload/results"
)

// ErrorClasses writes the classes that occurred in e with their counts,
// in class order: "status 1,400, timeout 3"; "" when none did.
func ErrorClasses(e results.ErrorCounts) string {
	var parts []string
	for c, n := range e {
		if n > 0 {
			parts = append(parts, results.ErrorClass(c).String()+" "+Count(n))
		}
	}
	return strings.Join(parts, ", ")
}

// phaseErrors is "errors N" with the classes when there are any:
// "errors 1,400: status 1,400".
func phaseErrors(total uint64, classes results.ErrorCounts) string {
	s := "errors " + Count(total)
	if c := ErrorClasses(classes); c != "" && total > 0 {
		s += ": " + c
	}
	return s
}

// OutsideLine says what the repetition's client did outside its window,
// counted by the window's rules but in no figure: the warm-up's responses
// and errors by class, and after the window those that completed late and
// those cut off. E.g. "warm-up 1,640 (errors 1,400: status 1,400), after
// the window 12 (errors 0), cut off 0".
func OutsideLine(o *results.Outside) string {
	after := o.AfterClasses.Total()
	if o.AfterClasses.IsZero() { // a record made before the phases had classes
		after = o.Abandoned
	}
	return "warm-up " + Count(o.Warmup) + " (" + phaseErrors(o.WarmupErrorTotal(), o.WarmupClasses) + "), after the window " +
		Count(o.Late) + " (" + phaseErrors(after, o.AfterClasses) + "), cut off " + Count(o.Abandoned)
}

// ReadinessLine is what a start's readiness probes did to the server:
// "readiness 1 (handshakes 1, connections 3)", its responses first.
func ReadinessLine(r *results.Readiness) string {
	return "readiness " + Count(r.Requests) + " (handshakes " + Count(r.Handshakes) + ", connections " + Count(r.Connections) + ")"
}
