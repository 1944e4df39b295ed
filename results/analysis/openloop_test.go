package analysis

import (
	"github.com/kaeload/kaeload/results"
	"strings"
	"testing"
	"time"
)

// TestOpenLoopLimitRule: more than 1 % of starts missed flags the group,
// CLIENT-BOUND when kaeload used at least 90 % of its CPUs (their busy
// time for runs recorded before kaeload measured itself), CPUS-TAKEN when
// they were that busy with other processes, SLOTS-EXHAUSTED otherwise; a
// closed loop or 1 % exactly is not flagged.
func TestOpenLoopLimitRule(t *testing.T) {
	for _, tc := range []struct {
		scheduled, missed uint64
		cpu, own          *results.CPUUsage
		want              string
	}{
		{0, 0, nil, nil, ""},
		{1000, 10, &results.CPUUsage{Busy: 1}, nil, ""},
		{1000, 11, &results.CPUUsage{Busy: 0.95}, nil, results.ClientBound},
		{1000, 11, &results.CPUUsage{Busy: 0.5}, nil, results.SlotsExhausted},
		{1000, 500, nil, nil, results.SlotsExhausted},
		{1000, 11, &results.CPUUsage{Busy: 0.97}, &results.CPUUsage{Busy: 0.92}, results.ClientBound},
		{1000, 11, &results.CPUUsage{Busy: 0.97}, &results.CPUUsage{Busy: 0.3}, results.CPUsTaken},
		{1000, 11, &results.CPUUsage{Busy: 0.5}, &results.CPUUsage{Busy: 0.3}, results.SlotsExhausted},
	} {
		g := results.Group{Counts: results.Counts{Scheduled: tc.scheduled, Missed: tc.missed}, CPU: tc.cpu, Process: tc.own}
		rep := &results.Rep{Groups: []results.Group{g}}
		got := ""
		if gs := missedLine(rep, RepGroupCPUs(rep)).N("groups"); len(gs) == 1 {
			got = gs[0].Args["limit"].(string)
		}
		if got != tc.want {
			t.Errorf("scheduled %d, missed %d, cpu %+v, own %+v: missedLine's limit = %q, want %q", tc.scheduled, tc.missed, tc.cpu, tc.own, got, tc.want)
		}
	}
	taken := results.Group{Index: 2, CPUs: "1", Slots: 16, Counts: results.Counts{Scheduled: 2000, Missed: 500},
		CPU: &results.CPUUsage{Busy: 0.97}, Process: &results.CPUUsage{Busy: 0.3}}
	takenRep := results.NewRep(0, []results.Group{taken})
	if got, want := AnalyzeRep(&takenRep).Missed.String(), "MISSED STARTS: group 2 CPUS-TAKEN (missed 25 % of its starts; CPUs 97 % busy, kaeload's own use 30 %): the rate asked was not kept"; got != want {
		t.Errorf("missedLine =\n%q\nwant\n%q", got, want)
	}
	start := time.Unix(1000, 0)
	g := results.Group{Index: 1, Slots: 16, Window: results.Window{Start: start, End: start.Add(2 * time.Second)},
		Counts: results.Counts{Scheduled: 2000, Missed: 500, Requests: 1500}, CPU: &results.CPUUsage{Busy: 0.4}}
	rep := results.NewRep(0, []results.Group{g})
	want := "MISSED STARTS: group 1 SLOTS-EXHAUSTED (missed 25 % of its starts; all 16 connection slots busy, CPUs 40 % busy): the rate asked was not kept"
	if got := AnalyzeRep(&rep).Missed.String(); got != want {
		t.Errorf("missedLine =\n%q\nwant\n%q", got, want)
	}
	if got := AnalyzeRep(&rep).OpenLoop.String(); !strings.HasPrefix(got, "1,000.0/s asked, 750.0/s achieved; 500 of 2,000 starts missed") {
		t.Errorf("openLoopLine = %q", got)
	}
	r := &results.Run{Variants: []results.Variant{{Name: "v", Reps: []results.Rep{rep}}}}
	Annotate(r)
	if !strings.Contains(strings.Join(r.Warnings.Strings(), "\n"), "variant v, repetition 1: MISSED STARTS") {
		t.Errorf("Annotate warnings %q lack the missed-starts line", r.Warnings)
	}
}
