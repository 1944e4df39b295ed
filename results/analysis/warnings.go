package analysis

import (
	"github.com/kaeload/kaeload/results"
	"slices"
)

// AllWarnings returns r.Warnings followed by the failed-repetition and
// client-bound warnings that Annotate would add, without changing r:
// what every rendering shows, whether or not Annotate ran.
func AllWarnings(r *results.Run) []string { return warnings(r) }

// warnings returns r.Warnings followed by the failed and client-bound
// warnings that Annotate would add.
func warnings(r *results.Run) []string {
	s, err := SummarizeRun(r)
	if err != nil {
		s = nil
	}
	return warningsOf(r, s)
}

// warningsOf returns r.Warnings followed by the failed, client-bound,
// other-load, backoff and failed-probe warnings and those of r's summary
// s (nil: none).
func warningsOf(r *results.Run, s *RunSummary) []string {
	ws := appendNew(slices.Clone(r.Warnings), failedWarnings(r)...)
	ws = appendNew(ws, clientBoundWarnings(r)...)
	ws = appendNew(ws, otherLoadWarnings(r)...)
	ws = appendNew(ws, serverWarnings(r)...)
	ws = appendNew(ws, repWarnings(r, BackoffLine)...)
	ws = appendNew(ws, ProbeWarnings(r)...)
	if s != nil {
		ws = appendNew(ws, s.Warnings...)
	}
	return ws
}
