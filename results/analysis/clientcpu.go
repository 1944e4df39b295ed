package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ClientBound indexes r's client-bound groups (GroupCPU.ClientBound): their
// rate measures kaeload rather than the server.
func ClientBound(r *results.Rep) []int { return groupsWhere(r, isClientBound) }

// OtherLoad indexes r's groups whose CPUs other processes took a large
// share of (GroupCPU.OtherLoad).
func OtherLoad(r *results.Rep) []int { return groupsWhere(r, isOtherLoad) }

// groupsWhere is the Group.Index of r's groups that match, in plan order.
func groupsWhere(r *results.Rep, match func(GroupCPU) bool) []int {
	var idx []int
	for _, gc := range RepGroupCPUs(r) {
		if match(gc) {
			idx = append(idx, gc.Index)
		}
	}
	return idx
}

// clientBoundPart is a client-bound group's note.
func clientBoundPart(gc GroupCPU) notes.Note {
	return notes.New(notes.ClientBoundGroup, "index", gc.Index, "cpus", gc.CPUs, "own", gc.Own,
		"busy", gc.Busy, "kaeload", gc.Kaeload, "interrupts", gc.Interrupts)
}

// otherLoadPart is an other-load group's note.
func otherLoadPart(gc GroupCPU) notes.Note {
	return notes.New(notes.OtherLoadGroup, "index", gc.Index, "cpus", gc.CPUs, "others", gc.Others, "kaeload", gc.Kaeload,
		"interrupts", gc.Interrupts, "wait", gc.Wait, "waited", gc.Waited, "top", gc.Top)
}

// groupsNote is code over the parts of rep's groups that match; zero
// when none does.
func groupsNote(rep *results.Rep, code notes.Code, match func(GroupCPU) bool, part func(GroupCPU) notes.Note) notes.Note {
	var parts []notes.Note
	for _, gc := range RepGroupCPUs(rep) {
		if match(gc) {
			parts = append(parts, part(gc))
		}
	}
	if len(parts) == 0 {
		return notes.Note{}
	}
	return notes.New(code, "groups", parts)
}

func isClientBound(gc GroupCPU) bool { return gc.ClientBound }
func isOtherLoad(gc GroupCPU) bool   { return gc.OtherLoad }

// ClientBoundLine names rep's client-bound groups; zero when none.
func ClientBoundLine(rep *results.Rep) notes.Note {
	return groupsNote(rep, notes.ClientBound, isClientBound, clientBoundPart)
}

// OtherLoadLine names rep's groups whose CPUs other processes took; zero
// when none. Not client-bound: a nice 19 loop takes only what kaeload leaves.
func OtherLoadLine(rep *results.Rep) notes.Note {
	return groupsNote(rep, notes.OtherLoad, isOtherLoad, otherLoadPart)
}

// ClientBoundGroups is one note per client-bound group of r: "variant kae,
// repetition 2: kaeload used 97 % of group 1 (CPUs 4-7)".
func ClientBoundGroups(r *results.Run) notes.List {
	return groupSentences(r, isClientBound, clientBoundPart)
}

// inRep is note as a run-wide line: "variant V, repetition N: note".
func inRep(v *results.Variant, rep *results.Rep, note notes.Note) notes.Note {
	return notes.New(notes.InRep, "variant", v.Name, "rep", rep.Index+1, "note", note)
}

// groupSentences is inRep of part(gc) for every matching group of r.
func groupSentences(r *results.Run, match func(GroupCPU) bool, part func(GroupCPU) notes.Note) notes.List {
	var out notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for _, gc := range RepGroupCPUs(&v.Reps[j]) {
				if match(gc) {
					out = append(out, inRep(v, &v.Reps[j], part(gc)))
				}
			}
		}
	}
	return out
}
