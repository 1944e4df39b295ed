package results

import (
	"strings"
	"testing"
	"time"
)

// TestOpenLoopLimit: more than 1 % of starts missed flags the group,
// CLIENT-BOUND when its CPUs were at least 90 % busy, SLOTS-EXHAUSTED
// otherwise; a closed loop or 1 % exactly is not flagged.
func TestOpenLoopLimit(t *testing.T) {
	for _, tc := range []struct {
		scheduled, missed uint64
		cpu               *CPUUsage
		want              string
	}{
		{0, 0, nil, ""},
		{1000, 10, &CPUUsage{Busy: 1}, ""},
		{1000, 11, &CPUUsage{Busy: 0.95}, ClientBound},
		{1000, 11, &CPUUsage{Busy: 0.5}, SlotsExhausted},
		{1000, 500, nil, SlotsExhausted},
	} {
		g := Group{Counts: Counts{Scheduled: tc.scheduled, Missed: tc.missed}, CPU: tc.cpu}
		if got := g.OpenLoopLimit(); got != tc.want {
			t.Errorf("scheduled %d, missed %d, cpu %+v: OpenLoopLimit = %q, want %q", tc.scheduled, tc.missed, tc.cpu, got, tc.want)
		}
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
