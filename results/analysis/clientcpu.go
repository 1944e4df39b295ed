package analysis

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"strings"
)

// ClientBound returns the Group.Index of every group of r in which
// kaeload itself used at least ClientBoundBusy of the CPUs' time
// (GroupCPU.ClientBound), in plan order; nil when none did (or none was
// measured). Such a repetition's rate measures kaeload rather than the
// server.
func ClientBound(r *results.Rep) []int {
	var idx []int
	for _, gc := range r.GroupCPUs() {
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
	for _, gc := range r.GroupCPUs() {
		if gc.OtherLoad {
			idx = append(idx, gc.Index)
		}
	}
	return idx
}

// groupName is "group 1 (CPUs 4-7)" or "group 0 (unpinned)".
func groupName(index int, cpus string) string {
	if cpus == "" {
		return fmt.Sprintf("group %d (unpinned)", index)
	}
	return fmt.Sprintf("group %d (CPUs %s)", index, cpus)
}

// clientBoundPart says how much of a client-bound group's CPUs kaeload
// used: "kaeload used 97 % of group 1 (CPUs 4-7)".
func clientBoundPart(gc results.GroupCPU) string {
	if !gc.Own {
		return fmt.Sprintf("%s was %.0f %% busy", groupName(gc.Index, gc.CPUs), gc.Busy*100)
	}
	s := fmt.Sprintf("kaeload used %.0f %% of %s", (gc.Kaeload+gc.Interrupts)*100, groupName(gc.Index, gc.CPUs))
	if gc.Interrupts >= 0.005 {
		s += fmt.Sprintf(" (its workers %.0f %%, interrupts %.0f %%)", gc.Kaeload*100, gc.Interrupts*100)
	}
	return s
}

// otherLoadPart says how much of a group's CPUs other processes took,
// how long kaeload's threads waited for a CPU, and who the busiest
// others were.
func otherLoadPart(gc results.GroupCPU) string {
	p := fmt.Sprintf("other processes took %.0f %% of %s, kaeload %.0f %%", gc.Others*100, groupName(gc.Index, gc.CPUs), gc.Kaeload*100)
	if gc.Interrupts >= 0.005 {
		p += fmt.Sprintf(", interrupts %.0f %%", gc.Interrupts*100)
	}
	if gc.Wait {
		p += fmt.Sprintf(" (its threads waited %.2f s in all for a CPU)", gc.Waited)
	}
	if len(gc.Top) > 0 {
		names := make([]string, len(gc.Top))
		for i, o := range gc.Top {
			names[i] = processName(o)
		}
		p += "; busiest: " + strings.Join(names, ", ")
	}
	return p
}

// ClientBoundLine is the loud line for a repetition with client-bound
// groups, "" when it has none.
func ClientBoundLine(rep *results.Rep) string {
	var parts []string
	for _, gc := range rep.GroupCPUs() {
		if gc.ClientBound {
			parts = append(parts, clientBoundPart(gc))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "CLIENT-BOUND: " + strings.Join(parts, ", ") + ": this figure measures kaeload, not the server"
}

// OtherLoadLine is the line for a repetition in which other processes
// took a large share of some group's CPUs, "" when none did. It is not
// the client-bound verdict: a busy loop at nice 19 takes only what
// kaeload leaves, while a server pinned beside the group takes what it
// needs, and the line gives what tells them apart (kaeload's share, how
// long its threads waited, who the others were).
func OtherLoadLine(rep *results.Rep) string {
	var parts []string
	for _, gc := range rep.GroupCPUs() {
		if gc.OtherLoad {
			parts = append(parts, otherLoadPart(gc))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "OTHER LOAD: " + strings.Join(parts, "; ") + ": not kaeload's own use, which alone makes a result client-bound"
}

// ClientBoundGroups returns one sentence per client-bound group
// (GroupCPU.ClientBound) of every repetition of r: "variant kae,
// repetition 2: kaeload used 97 % of group 1 (CPUs 4-7)".
func ClientBoundGroups(r *results.Run) []string {
	return groupSentences(r, func(gc results.GroupCPU) bool { return gc.ClientBound }, clientBoundPart)
}

// OtherLoadGroups returns one sentence per group of every repetition of
// r whose CPUs other processes took a large share of
// (GroupCPU.OtherLoad), naming the busiest of them.
func OtherLoadGroups(r *results.Run) []string {
	return groupSentences(r, func(gc results.GroupCPU) bool { return gc.OtherLoad }, otherLoadPart)
}

// groupSentences returns "variant V, repetition N: " and part(gc) for
// every group of every repetition of r that match selects.
func groupSentences(r *results.Run, match func(results.GroupCPU) bool, part func(results.GroupCPU) string) []string {
	var out []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for _, gc := range v.Reps[j].GroupCPUs() {
				if match(gc) {
					out = append(out, fmt.Sprintf("variant %s, repetition %d: %s", v.Name, v.Reps[j].Index+1, part(gc)))
				}
			}
		}
	}
	return out
}

// processName is "sh (pid 4242, nice 19, CPUs 1) 2.95 CPU-s".
func processName(o results.ProcessCPU) string {
	s := fmt.Sprintf("%s (pid %d", o.Comm, o.PID)
	if o.Nice != 0 {
		s += fmt.Sprintf(", nice %d", o.Nice)
	}
	if o.CPUs != "" {
		s += ", CPUs " + o.CPUs
	}
	return s + fmt.Sprintf(") %.2f CPU-s", o.Seconds)
}

// otherLoadWarnings returns one warning per repetition of r with other
// load on a group's CPUs.
func otherLoadWarnings(r *results.Run) []string { return repWarnings(r, OtherLoadLine) }
