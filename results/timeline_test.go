package results_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"reflect"
	"testing"
	"time"
)

// TestRunBeforeTimeline: a run.json written before timelines existed
// (kaeload at the commit before them, two groups, two repetitions) still
// loads, and says it has no timeline: no Rep.Timeline, no group's.
func TestRunBeforeTimeline(t *testing.T) {
	r, err := fixture.BeforeTimelineRun()
	if err != nil {
		t.Fatalf("ReadRun: %v", err)
	}
	if len(r.Variants) != 1 || len(r.Variants[0].Reps) != 2 {
		t.Fatalf("%d variants, want 1 with 2 repetitions", len(r.Variants))
	}
	for _, rep := range r.Variants[0].Reps {
		if rep.Timeline != nil {
			t.Errorf("rep %d: timeline %+v, want none", rep.Index, rep.Timeline)
		}
		for i := range rep.Groups {
			if got := rep.GroupTimeline(i); got != nil {
				t.Errorf("rep %d group %d: timeline %+v, want none", rep.Index, i, got)
			}
		}
		if rep.Total.Requests == 0 {
			t.Errorf("rep %d: no requests: not the stored run", rep.Index)
		}
	}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`"timeline"`)) {
		t.Error("written again, the run gained a timeline key")
	}
}

// TestTimelineJSON: a timeline survives run.json: counters that grew,
// grew by 0 (left out), are missing for an interval (null) or not
// available on the host; errors by class; percentiles and shares.
func TestTimelineJSON(t *testing.T) {
	rep := fixture.TimelineRep(2, 3, true)
	rep.Timeline.Hosts[1].Unavailable = map[string]string{"TCPReqQFullDrop": "not in this kernel's /proc/net/netstat"}
	d := rep.Timeline.Hosts[0].Deltas
	d["ActiveOpens"][1], d["OutRsts"][1] = nil, nil
	d["SyncookiesSent"] = []*uint64{new(uint64), new(uint64), nil}
	r := &results.Run{Name: "json", Variants: []results.Variant{{Name: "v", Reps: []results.Rep{rep}}}}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadRun(&buf)
	if err != nil {
		t.Fatalf("ReadRun: %v", err)
	}
	got := back.Variants[0].Reps[0]
	if !reflect.DeepEqual(got.Timeline, rep.Timeline) {
		t.Errorf("timeline after run.json:\n%+v\nwant\n%+v", got.Timeline, rep.Timeline)
	}
	if !reflect.DeepEqual(got.Groups[1].Timeline, rep.Groups[1].Timeline) {
		t.Errorf("group 1's timeline after run.json:\n%+v\nwant\n%+v", got.Groups[1].Timeline, rep.Groups[1].Timeline)
	}
	tl := got.Timeline
	for _, c := range []struct {
		point, host int
		name        string
		want        uint64
		ok          bool
	}{
		{0, 0, "ActiveOpens", 123456, true},
		{0, 0, "SyncookiesSent", 0, true},      // available, grew by 0
		{2, 0, "SyncookiesSent", 0, false},     // missing in the last
		{0, 0, "TCPTimeWaitOverflow", 0, true}, // no series: 0 throughout
		{1, 0, "ActiveOpens", 0, false},        // missing in this interval
		{1, 0, "TCPSynRetrans", 123456, true},  // the others are there
		{0, 1, "TCPReqQFullDrop", 0, false},    // not available on the host
		{0, 1, "ListenOverflows", 123456, true},
		{0, 2, "ActiveOpens", 0, false}, // no such host
		{0, 0, "NoSuchCounter", 0, false},
	} {
		v, ok := tl.TCP(c.point, c.host, c.name)
		if v != c.want || ok != c.ok {
			t.Errorf("TCP(%d, %d, %s) = %d, %v; want %d, %v", c.point, c.host, c.name, v, ok, c.want, c.ok)
		}
	}
	if got, want := len(tl.Window()), 1; got != want {
		t.Errorf("%d points in the window, want %d (3 intervals from -2 s)", got, want)
	}
}

// TestTimelineBuilder merges two groups' samples exactly: counts add up,
// the total's percentiles are those of the merged histograms (not of the
// groups' percentiles), a CPU two groups share is counted once, the
// controller's readings land on their intervals, and a group cannot send
// an interval twice. With one group, its intervals are stored once.
func TestTimelineBuilder(t *testing.T) {
	hist := func(ms ...int) *results.Histogram {
		h := results.NewHistogram()
		for _, v := range ms {
			h.Record(time.Duration(v) * time.Millisecond)
		}
		return h
	}
	cpus := func(busy float64, ids ...int) *results.CPUUsage {
		u := &results.CPUUsage{Busy: busy}
		for _, id := range ids {
			u.PerCPU = append(u.PerCPU, results.CPUTime{CPU: id, Seconds: busy})
			u.Seconds += busy
		}
		return u
	}
	b := results.NewTimelineBuilder(time.Second, []string{"", ""})
	samples := []struct {
		g int
		s results.IntervalSample
	}{
		{0, results.IntervalSample{K: -1, Start: -300 * time.Millisecond, Length: 300 * time.Millisecond, Requests: 3, Started: 4, Total: hist(1, 1, 1)}},
		{1, results.IntervalSample{K: -1, Start: -290 * time.Millisecond, Length: 290 * time.Millisecond, Requests: 2, Started: 2, Total: hist(9, 9)}},
		{0, results.IntervalSample{K: 0, Length: time.Second, Requests: 10, Started: 10, Errors: results.ErrorCounts{results.ErrConnect: 2},
			Total: hist(1, 1, 1, 1, 1, 1, 1, 1, 1, 1), Handshake: hist(1), Process: &results.CPUUsage{Seconds: 0.5, Busy: 0.25}, CPUs: cpus(0.5, 0, 1)}},
		{1, results.IntervalSample{K: 0, Length: time.Second, Requests: 1, Started: 2, Errors: results.ErrorCounts{results.ErrTimeout: 1},
			Total: hist(100), Process: &results.CPUUsage{Seconds: 0.25, Busy: 0.25}, CPUs: cpus(0.5, 1)}},
	}
	for _, s := range samples {
		if err := b.Add(s.g, s.s); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Add(1, samples[3].s); err == nil {
		t.Error("a second sample of interval 0 from group 1 was accepted")
	}
	if err := b.Add(2, samples[3].s); err == nil {
		t.Error("a sample of group 2 of 2 was accepted")
	}
	b.AddServer(0, 0, time.Second, &results.CPUUsage{Busy: 0.123456})
	b.SetHosts([]results.TCPHost{{Name: "local", Counters: fixture.TcpNames}})
	b.AddTCP(0, 0, 0, time.Second, results.TCPCounts{Grew: map[string]uint64{"ActiveOpens": 11}})
	tl, groups := b.Build()
	if len(tl.Points) != 2 || len(groups) != 2 || len(groups[0]) != 2 || len(groups[1]) != 2 {
		t.Fatalf("%d points, groups %v: want 2 points and 2 intervals per group", len(tl.Points), groups)
	}
	warm, win := tl.Points[0], tl.Points[1]
	if warm.Start != -300*time.Millisecond || warm.Length != 300*time.Millisecond {
		t.Errorf("the warm-up point spans %s + %s, want the earlier group's -300ms + 300ms", warm.Start, warm.Length)
	}
	// 3 × 1 ms and 2 × 9 ms: the percentiles of all five (p50 1 ms),
	// not an average of the groups' (p50 5 ms).
	all := hist(1, 1, 1, 9, 9)
	all50, all99 := time.Duration(all.ValueAtQuantile(50))*time.Microsecond, time.Duration(all.ValueAtQuantile(99))*time.Microsecond
	if warm.TotalP50 != all50 || warm.TotalP99 != all99 || all50 > 2*time.Millisecond {
		t.Errorf("warm-up total p50 %s, p99 %s; want those of all five times, %s and %s", warm.TotalP50, warm.TotalP99, all50, all99)
	}
	if win.Requests != 11 || win.Started != 12 || win.Errors[results.ErrConnect] != 2 || win.Errors[results.ErrTimeout] != 1 {
		t.Errorf("window point %+v, want 11 requests, 12 started, 2 connect and 1 timeout errors", win.Interval)
	}
	// CPUs 0 and 1, CPU 1 shared: (0.5 + 0.5) s over 2 CPUs × 1 s. The
	// workers' 0.75 s over the same 2 CPUs.
	if win.CPUsBusy == nil || *win.CPUsBusy != 0.5 || win.ProcessBusy == nil || *win.ProcessBusy != 0.375 {
		t.Errorf("window CPUs busy %v, process %v; want 0.5 and 0.375", deref(win.CPUsBusy), deref(win.ProcessBusy))
	}
	if win.ServerBusy == nil || *win.ServerBusy != 0.1235 {
		t.Errorf("server busy %v, want 0.1235", deref(win.ServerBusy))
	}
	if v, ok := tl.TCP(1, 0, "ActiveOpens"); v != 11 || !ok {
		t.Errorf("ActiveOpens %d, %v; want 11", v, ok)
	}
	if _, ok := tl.TCP(0, 0, "ActiveOpens"); ok {
		t.Error("ActiveOpens available in the warm-up point, which was not read")
	}
	if g, want := groups[1][1], hist(100).ValueAtQuantile(50); g.TotalP50 != time.Duration(want)*time.Microsecond || g.CPUsBusy == nil || *g.CPUsBusy != 0.5 {
		t.Errorf("group 1's window interval %+v, want total p50 100ms and its CPUs half busy", g)
	}

	one := results.NewTimelineBuilder(time.Second, []string{""})
	if err := one.Add(0, samples[2].s); err != nil {
		t.Fatal(err)
	}
	tl1, g1 := one.Build()
	rep := results.Rep{Groups: []results.Group{{Timeline: g1[0]}}, Timeline: tl1}
	if g1[0] != nil {
		t.Errorf("one group: its intervals stored beside the points: %+v", g1[0])
	}
	if got := rep.GroupTimeline(0); len(got) != 1 || got[0].Requests != 10 {
		t.Errorf("one group: GroupTimeline %+v, want the one point's 10 requests", got)
	}
}

func deref(p *float64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// TestTimelineListener keeps the listener's readings on their points: a
// series with no reading is absent, drops unknown are null, the backlog is
// the largest read; an unavailable listener keeps why and no reading.
func TestTimelineListener(t *testing.T) {
	b := results.NewTimelineBuilder(time.Second, []string{""})
	b.SetListener("local", 443, "")
	b.AddListener(0, 0, time.Second, results.ListenSample{Queue: 3, Backlog: 511})
	b.AddListener(2, 2*time.Second, time.Second, results.ListenSample{Drops: 7, DropsKnown: true, Queue: 5, Backlog: 128})
	b.AddServer(1, time.Second, time.Second, &results.CPUUsage{Busy: 0.5})
	tl, _ := b.Build()
	l := tl.Listener
	if l == nil || len(l.Queue) != 3 || len(l.Drops) != 3 {
		t.Fatalf("listener %+v, want queue and drops over 3 points", l)
	}
	if l.Queue[1] != nil || *l.Queue[0] != 3 || *l.Queue[2] != 5 || l.Drops[0] != nil || *l.Drops[2] != 7 || l.Backlog != 511 {
		t.Errorf("listener %+v: want queue 3, null, 5; drops null, null, 7; backlog 511", l)
	}

	b = results.NewTimelineBuilder(time.Second, []string{""})
	b.SetListener("local", 443, "")
	b.AddListener(0, 0, time.Second, results.ListenSample{Queue: 3})
	if tl, _ := b.Build(); tl.Listener.Drops != nil || tl.Listener.Queue == nil {
		t.Errorf("drops never known: %+v, want no drops and the queue", tl.Listener)
	}

	b = results.NewTimelineBuilder(time.Second, []string{""})
	b.SetListener("local", 443, "no ss")
	b.AddListener(0, 0, time.Second, results.ListenSample{Queue: 3, DropsKnown: true})
	if tl, _ := b.Build(); tl.Listener.Unavailable != "no ss" || tl.Listener.Queue != nil || tl.Listener.Drops != nil {
		t.Errorf("unavailable listener %+v, want why and no series", tl.Listener)
	}
}

// TestDeltasNilWhenNothingGrew: a built timeline equals its JSON round trip, the journal's copy, when no
// counter grew.
func TestDeltasNilWhenNothingGrew(t *testing.T) {
	b := results.NewTimelineBuilder(time.Second, []string{"local"})
	b.SetHosts([]results.TCPHost{{Name: "local", Counters: []string{"ActiveOpens"}}})
	b.AddTCP(0, 0, 0, time.Second, results.TCPCounts{Grew: map[string]uint64{"ActiveOpens": 0}})
	tl, _ := b.Build()
	if d := tl.Hosts[0].Deltas; d != nil {
		t.Errorf("Deltas = %#v, want nil when nothing grew", d)
	}
	data, err := json.Marshal(tl.Hosts)
	if err != nil {
		t.Fatal(err)
	}
	var back []results.TCPHost
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tl.Hosts) {
		t.Errorf("hosts differ after a JSON round trip:\n%#v\n%#v", tl.Hosts, back)
	}
}
