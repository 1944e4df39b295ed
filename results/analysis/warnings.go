package analysis

import (
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// Annotate appends the analysis's warnings, the missed starts' included,
// to r.Warnings once (the journal, before writing run.json).
func Annotate(r *results.Run) {
	reps := analyzeReps(r)
	for _, n := range ownWarnings(r, reps, summarizeRun(r, reps), true) {
		r.Warnings = r.Warnings.AppendNew(n.Warning())
	}
}

// repLines are the lines of a repetition that warn, in the order warned:
// failed, client-bound, other load, the server's CPUs, missed starts
// (with missed), backoff.
func repLines(missed bool) []func(*RepReport) notes.Note {
	lines := []func(*RepReport) notes.Note{
		func(ra *RepReport) notes.Note { return ra.Failed },
		func(ra *RepReport) notes.Note { return ra.ClientBound },
		func(ra *RepReport) notes.Note { return ra.OtherLoad },
		func(ra *RepReport) notes.Note { return ra.ServerOtherLoad },
		func(ra *RepReport) notes.Note { return ra.SharedCPUs },
		func(ra *RepReport) notes.Note { return ra.NotSaturated },
	}
	if missed {
		lines = append(lines, func(ra *RepReport) notes.Note { return ra.Missed })
	}
	return append(lines, func(ra *RepReport) notes.Note { return ra.Backoff })
}

// ownWarnings are the warnings of r's repetitions (analysed in reps,
// repLines), its probes' and its summary s's, each said once.
func ownWarnings(r *results.Run, reps [][]RepReport, s *RunSummary, missed bool) notes.List {
	var ws notes.List
	for _, line := range repLines(missed) {
		ws = append(ws, repWarnings(r, reps, line)...)
	}
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
