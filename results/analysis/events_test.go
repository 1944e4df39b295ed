package analysis

import (
	"reflect"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestKernelEvents: on a timeline of four one-second intervals (the first
// in the warm-up) with a namespace the clients and server share and a
// client host of their own, every growth of a trouble counter is an event
// where it happened; resets and aborts are events only in the interval
// where a host reset at least half the connections it opened (a healthy
// 3 % elsewhere is not; nor is the close race's half, in aborts at close,
// in an interval where no request failed), and then every one of them
// that grew; a counter
// not read in an interval (null) or not available on a host has none.
func TestKernelEvents(t *testing.T) {
	u := func(vs ...int64) []*uint64 { // -1: not read
		out := make([]*uint64, len(vs))
		for i, v := range vs {
			if v >= 0 {
				n := uint64(v)
				out[i] = &n
			}
		}
		return out
	}
	tl := &results.Timeline{Interval: time.Second}
	for k := -1; k < 3; k++ {
		tl.Points = append(tl.Points, results.Point{Interval: results.Interval{Start: time.Duration(k) * time.Second, Length: time.Second, Requests: 1000}})
	}
	tl.Points[0].Length = 700 * time.Millisecond // the load began inside it
	tl.Points[0].Start = -700 * time.Millisecond
	names := append(append([]string{"ActiveOpens", "PassiveOpens"}, TroubleCounters...), ResetCounters...)
	tl.Hosts = []results.TCPHost{
		{Name: "local", Client: true, Server: true, Shared: true, Counters: names,
			Unavailable: map[string]string{"TCPReqQFullDrop": "not in this kernel"},
			Deltas: map[string][]*uint64{
				"ActiveOpens":     u(700, 1000, 1000, 1000),
				"PassiveOpens":    u(700, 1000, 1000, 1000),
				"ListenOverflows": u(12, 0, 4581, -1),
				"TCPSynRetrans":   u(0, 0, 1967, 3),
				"OutRsts":         u(20, 30, 600, 31),
				"EstabResets":     u(0, 1, 550, 0),
				"TCPAbortOnClose": u(20, 29, 50, 31),
			}},
		{Name: "lg2", Client: true, Counters: names,
			Deltas: map[string][]*uint64{
				"ActiveOpens":         u(0, 90, 100, 100),
				"OutRsts":             u(0, 80, 0, 0), // more than half of 90, but under diagnosis.MinResets
				"TCPTimeWaitOverflow": u(0, 0, 0, 5),
			}},
		{Name: "srv2", Server: true, Counters: names,
			Deltas: map[string][]*uint64{
				"PassiveOpens":    u(700, 1000, 1000, 1000),
				"OutRsts":         u(10, 10, 600, 600), // the close race: no request failed in 2, one did in 3
				"TCPAbortOnData":  u(0, 0, 350, 350),
				"TCPAbortOnClose": u(10, 10, 240, 240),
			}},
	}
	tl.Points[3].Errors[results.ErrRead] = 1
	got := KernelEvents(tl)
	both := "local (clients and server)"
	ev := func(p int, host, counter string, n uint64) KernelEvent {
		return KernelEvent{Start: tl.Points[p].Start, Length: tl.Points[p].Length, Host: host, Counter: counter, Count: n}
	}
	want := []KernelEvent{
		ev(0, both, "ListenOverflows", 12),
		ev(2, both, "ListenOverflows", 4581), ev(2, both, "TCPSynRetrans", 1967),
		ev(2, both, "OutRsts", 600), ev(2, both, "EstabResets", 550), ev(2, both, "TCPAbortOnClose", 50),
		ev(3, both, "TCPSynRetrans", 3),
		ev(3, "lg2 (clients)", "TCPTimeWaitOverflow", 5),
		ev(3, "srv2 (server)", "OutRsts", 600), ev(3, "srv2 (server)", "TCPAbortOnData", 350), ev(3, "srv2 (server)", "TCPAbortOnClose", 240),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("KernelEvents\n got %+v\nwant %+v", got, want)
	}
	if got := KernelEvents(nil); got != nil {
		t.Errorf("KernelEvents(nil) = %+v, want none", got)
	}

	// Analyze keeps them per repetition; a repetition without a timeline has none.
	rep := results.NewRep(0, nil)
	rep.Timeline = tl
	r := &results.Run{SchemaVersion: results.SchemaVersion, Name: "events", Variants: []results.Variant{{Name: "a", Reps: []results.Rep{rep, results.NewRep(1, nil)}}}}
	m := Analyze(r)
	if got := m.Reps[0][0].Events; !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze: rep 0's events %+v, want KernelEvents'", got)
	}
	if got := m.Reps[0][1].Events; got != nil {
		t.Errorf("Analyze: rep 1 (no timeline) has events %+v", got)
	}
}

// TestReportBeforeTimeline: a run stored before timelines has no
// diagnosis and no host-only change in its Report.
func TestReportBeforeTimeline(t *testing.T) {
	r, err := fixture.BeforeTimelineRun()
	if err != nil {
		t.Fatal(err)
	}
	if m := Analyze(r); m.Diagnoses != nil || m.HostOnly != nil {
		t.Errorf("diagnoses %+v, host-only %+v, want none", m.Diagnoses, m.HostOnly)
	}
}
