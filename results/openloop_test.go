package results

import (
	"strings"
	"testing"
	"time"
)

// TestOpenLoopLimit: more than 1 % of starts missed flags the group,
// CLIENT-BOUND when kaeload used at least 90 % of its CPUs (their busy
// time for runs recorded before kaeload measured itself), CPUS-TAKEN when
// they were that busy with other processes, SLOTS-EXHAUSTED otherwise; a
// closed loop or 1 % exactly is not flagged.
func TestOpenLoopLimit(t *testing.T) {
	for _, tc := range []struct {
		scheduled, missed uint64
		cpu, own          *CPUUsage
		want              string
	}{
		{0, 0, nil, nil, ""},
		{1000, 10, &CPUUsage{Busy: 1}, nil, ""},
		{1000, 11, &CPUUsage{Busy: 0.95}, nil, ClientBound},
		{1000, 11, &CPUUsage{Busy: 0.5}, nil, SlotsExhausted},
		{1000, 500, nil, nil, SlotsExhausted},
		{1000, 11, &CPUUsage{Busy: 0.97}, &CPUUsage{Busy: 0.92}, ClientBound},
		{1000, 11, &CPUUsage{Busy: 0.97}, &CPUUsage{Busy: 0.3}, CPUsTaken},
		{1000, 11, &CPUUsage{Busy: 0.5}, &CPUUsage{Busy: 0.3}, SlotsExhausted},
	} {
		g := Group{Counts: Counts{Scheduled: tc.scheduled, Missed: tc.missed}, CPU: tc.cpu, Process: tc.own}
		if got := g.OpenLoopLimit(); got != tc.want {
			t.Errorf("scheduled %d, missed %d, cpu %+v, own %+v: OpenLoopLimit = %q, want %q", tc.scheduled, tc.missed, tc.cpu, tc.own, got, tc.want)
		}
	}
	taken := Group{Index: 2, CPUs: "1", Slots: 16, Counts: Counts{Scheduled: 2000, Missed: 500},
		CPU: &CPUUsage{Busy: 0.97}, Process: &CPUUsage{Busy: 0.3}}
	takenRep := NewRep(0, []Group{taken})
	if got, want := missedLine(&takenRep), "MISSED STARTS: group 2 CPUS-TAKEN (missed 25 % of its starts; CPUs 97 % busy, kaeload's own use 30 %): the rate asked was not kept"; got != want {
		t.Errorf("missedLine =\n%q\nwant\n%q", got, want)
	}
	start := time.Unix(1000, 0)
	g := Group{Index: 1, Slots: 16, Window: Window{Start: start, End: start.Add(2 * time.Second)},
		Counts: Counts{Scheduled: 2000, Missed: 500, Requests: 1500}, CPU: &CPUUsage{Busy: 0.4}}
	rep := NewRep(0, []Group{g})
	want := "MISSED STARTS: group 1 SLOTS-EXHAUSTED (missed 25 % of its starts; all 16 connection slots busy, CPUs 40 % busy): the rate asked was not kept"
	if got := missedLine(&rep); got != want {
		t.Errorf("missedLine =\n%q\nwant\n%q", got, want)
	}
	if got := openLoopLine(&rep.Total); !strings.HasPrefix(got, "1,000.0/s asked, 750.0/s achieved; 500 of 2,000 starts missed") {
		t.Errorf("openLoopLine = %q", got)
	}
	r := &Run{Variants: []Variant{{Name: "v", Reps: []Rep{rep}}}}
	r.Annotate()
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "variant v, repetition 1: MISSED STARTS") {
		t.Errorf("Annotate warnings %q lack the missed-starts line", r.Warnings)
	}
}
