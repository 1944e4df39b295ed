package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
)

// warningsOf returns r.Warnings followed by the analysis's own warnings
// (summary s, nil: none), without changing r.
func warningsOf(r *results.Run, s *RunSummary) []string {
	return appendNew(slices.Clone(r.Warnings), ownWarnings(r, s, false)...)
}

// Annotate appends the analysis's warnings, the missed starts' included,
// to r.Warnings once (the journal, before writing run.json).
func Annotate(r *results.Run) {
	s, err := SummarizeRun(r)
	if err != nil {
		s = nil
	}
	r.Warnings = appendNew(r.Warnings, ownWarnings(r, s, true)...)
}

// ownWarnings are the warnings of r's repetitions (missed starts only
// with missed), then those of its summary s.
func ownWarnings(r *results.Run, s *RunSummary, missed bool) []string {
	ws := appendNew(nil, repWarnings(r, FailedLine)...)
	ws = appendNew(ws, repWarnings(r, ClientBoundLine)...)
	ws = appendNew(ws, repWarnings(r, OtherLoadLine)...)
	ws = appendNew(ws, serverWarnings(r)...)
	if missed {
		ws = appendNew(ws, repWarnings(r, MissedLine)...)
	}
	ws = appendNew(ws, repWarnings(r, BackoffLine)...)
	ws = appendNew(ws, ProbeWarnings(r).Strings()...)
	if s != nil {
		ws = appendNew(ws, s.Warnings.Strings()...)
	}
	return ws
}

// appendNew appends the strings of add that ws does not hold yet.
func appendNew(ws []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(ws, a) {
			ws = append(ws, a)
		}
	}
	return ws
}
