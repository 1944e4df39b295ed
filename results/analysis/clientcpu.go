package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// ClientBound returns the Group.Index of every group of r in which
// kaeload itself used at least ClientBoundBusy of the CPUs' time
// (GroupCPU.ClientBound), in plan order; nil when none did (or none was
// measured). Such a repetition's rate measures kaeload rather than the
// server.
func ClientBound(r *results.Rep) []int {
	var idx []int
	for _, gc := range RepGroupCPUs(r) {
		if gc.ClientBound {
			idx = append(idx, gc.Index)
		}
	}
	return idx
}

// OtherLoad returns the Group.Index of every group of r whose CPUs other
// processes took at least OtherLoadShare of (GroupCPU.OtherLoad), in
// plan order; nil when none.
func OtherLoad(r *results.Rep) []int {
	var idx []int
	for _, gc := range RepGroupCPUs(r) {
		if gc.OtherLoad {
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

// otherLoadPart is the note of a group whose CPUs other processes took:
// how much, how long kaeload's threads waited and the busiest others.
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

// ClientBoundLine is the loud line for a repetition with client-bound
// groups; zero when it has none.
func ClientBoundLine(rep *results.Rep) notes.Note {
	return groupsNote(rep, notes.ClientBound, isClientBound, clientBoundPart)
}

// OtherLoadLine is the line for a repetition in which other processes
// took a large share of some group's CPUs; zero when none did. It is not
// the client-bound verdict: a nice 19 loop takes only what kaeload
// leaves, a server pinned beside the group what it needs.
func OtherLoadLine(rep *results.Rep) notes.Note {
	return groupsNote(rep, notes.OtherLoad, isOtherLoad, otherLoadPart)
}

// ClientBoundGroups returns one note per client-bound group of every
// repetition of r: "variant kae, repetition 2: kaeload used 97 % of
// group 1 (CPUs 4-7)".
func ClientBoundGroups(r *results.Run) notes.List {
	return groupSentences(r, isClientBound, clientBoundPart)
}

// inRep is note as a run-wide line: "variant V, repetition N: note".
func inRep(v *results.Variant, rep *results.Rep, note notes.Note) notes.Note {
	return notes.New(notes.InRep, "variant", v.Name, "rep", rep.Index+1, "note", note)
}

// groupSentences returns inRep of part(gc) for every group of every
// repetition of r that match selects.
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
