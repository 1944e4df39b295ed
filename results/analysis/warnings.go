package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// warningsOf returns r.Warnings followed by the analysis's own warnings
// (summary s, nil: none), without changing r.
func warningsOf(r *results.Run, s *RunSummary) []string {
	return appendNew(r.Warnings.Strings(), ownWarnings(r, s, false).Strings()...)
}

// Annotate appends the analysis's warnings, the missed starts' included,
// to r.Warnings once (the journal, before writing run.json).
func Annotate(r *results.Run) {
	for _, n := range ownWarnings(r, SummarizeRun(r), true) {
		r.Warnings = r.Warnings.AppendNew(n.Warning())
	}
}

// ownWarnings are the failed, client-bound, other-load, server CPU,
// missed-start (with missed), backoff and probe warnings of r's
// repetitions, then those of its summary s, each said once.
func ownWarnings(r *results.Run, s *RunSummary, missed bool) notes.List {
	ws := repWarnings(r, FailedLine)
	ws = append(ws, repWarnings(r, ClientBoundLine)...)
	ws = append(ws, repWarnings(r, OtherLoadLine)...)
	ws = append(ws, serverWarnings(r)...)
	if missed {
		ws = append(ws, repWarnings(r, MissedLine)...)
	}
	ws = append(ws, repWarnings(r, BackoffLine)...)
	ws = append(ws, ProbeWarnings(r)...)
	if s != nil {
		ws = append(ws, s.Warnings...)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(ws, func(n notes.Note) bool {
		said := seen[n.String()]
		seen[n.String()] = true
		return said
	})
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
