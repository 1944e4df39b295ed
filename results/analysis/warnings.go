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

// ownWarnings are the warnings of r's repetitions (analysed in reps): in
// this order, each kind for every repetition, failed, client-bound, other
// load, the server's CPUs, missed starts (with missed), backoff; then its
// probes' and its summary s's, each said once.
func ownWarnings(r *results.Run, reps [][]RepReport, s *RunSummary, missed bool) notes.List {
	lines := func(ra *RepReport) []notes.Note {
		l := []notes.Note{ra.Failed, ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs, ra.NotSaturated, ra.Missed, ra.Backoff}
		if !missed {
			l[6] = notes.Note{}
		}
		return l
	}
	var ws notes.List
	for k := range 8 {
		ws = append(ws, repNotes(r, reps, func(ra *RepReport) []notes.Note {
			return slices.DeleteFunc(lines(ra)[k:k+1], notes.Note.IsZero)
		})...)
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

// repNotes is each note of every repetition of r (analysed in reps) as
// a run-wide line: "variant V, repetition N: note".
func repNotes(r *results.Run, reps [][]RepReport, of func(*RepReport) []notes.Note) notes.List {
	var out notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for _, n := range of(&reps[i][j]) {
				out = append(out, notes.New(notes.InRep, "variant", v.Name, "rep", v.Reps[j].Index+1, "note", n))
			}
		}
	}
	return out
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
