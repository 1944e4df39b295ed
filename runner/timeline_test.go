package runner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// checkRepTimeline checks the timeline of rep, a repetition of p run on
// this machine against a loopback target:
//
//   - each group's intervals and the total's points add up exactly to
//     the window's counts (those with Start >= 0) and the warm-up's (the
//     others), errors class by class; the last ends with the window;
//   - every point in the window has the workers' CPU, the groups' CPUs
//     (pinned groups) and the server's CPU (when the window's was
//     measured);
//   - client and server share this machine's network namespace: one
//     host, "local", Shared, whose ActiveOpens are available in every
//     point and over the timeline at least the connections the run
//     opened (other processes on the machine only add to them).
func checkRepTimeline(t *testing.T, p *plans.Plan, rep results.Rep) {
	t.Helper()
	tl := rep.Timeline
	if tl == nil {
		t.Fatal("the repetition has no timeline")
	}
	if tl.Interval != p.Load.Interval {
		t.Errorf("timeline interval %s, want %s", tl.Interval, p.Load.Interval)
	}
	for i, g := range rep.Groups {
		if len(rep.Groups) == 1 && g.Timeline != nil {
			t.Errorf("the one group has a timeline of its own: stored twice")
		}
		checkIntervalSums(t, fmt.Sprintf("group %d", i), rep.GroupTimeline(i), g.Counts, g.Window.Length())
	}
	points := make([]results.Interval, len(tl.Points))
	for i, pt := range tl.Points {
		points[i] = pt.Interval
	}
	checkIntervalSums(t, "total", points, rep.Total.Counts, rep.Total.Window.Length())

	pinned := true
	for _, g := range p.Load.Groups {
		pinned = pinned && len(g.CPUs) > 0
	}
	for _, pt := range tl.Window() {
		at := fmt.Sprintf("point at %s", pt.Start)
		if pinned && (pt.ProcessBusy == nil || *pt.ProcessBusy <= 0) {
			t.Errorf("%s: workers' CPU %v, want measured", at, pt.ProcessBusy)
		}
		if pinned && (pt.CPUsBusy == nil || *pt.CPUsBusy <= 0 || *pt.CPUsBusy > 1) {
			t.Errorf("%s: groups' CPUs busy %v, want a share", at, pt.CPUsBusy)
		}
		if rep.ServerCPU != nil && pt.ServerBusy == nil {
			t.Errorf("%s: no server CPU, though the window's was measured", at)
		}
	}
	if len(tl.Hosts) != 1 {
		t.Fatalf("TCP hosts %+v, want one: client and server share this machine's namespace", tl.Hosts)
	}
	h := tl.Hosts[0]
	if h.Name != localHost || !h.Client || !h.Server || !h.Shared || h.Namespace == "" {
		t.Errorf("TCP host %+v, want %s, client and server, shared, with its namespace", h, localHost)
	}
	var opens uint64
	for i := range tl.Points {
		n, ok := tl.TCP(i, 0, "ActiveOpens")
		if !ok {
			t.Fatalf("point %d: ActiveOpens not available: %+v", i, tl.Hosts[0])
		}
		opens += n
	}
	c := rep.Total.Counts
	if want := c.Connections + c.Outside.Warmup; p.Load.Connection == plans.Close && opens < want {
		t.Errorf("ActiveOpens grew by %d over the timeline, want at least the run's %d connections (%d in the window, %d in the warm-up)",
			opens, want, c.Connections, c.Outside.Warmup)
	}
}

// checkIntervalSums checks that ivs add up to c: those with Start >= 0 to
// the window's requests and errors (class by class), the others to the
// warm-up's; that they are in order; and that the last ends at length,
// the window's.
func checkIntervalSums(t *testing.T, name string, ivs []results.Interval, c results.Counts, length time.Duration) {
	t.Helper()
	if len(ivs) == 0 {
		t.Errorf("%s: no interval", name)
		return
	}
	var win, warm results.Interval
	for i, iv := range ivs {
		if i > 0 && iv.Start < ivs[i-1].End() {
			t.Errorf("%s: interval at %s overlaps the one before (%s + %s)", name, iv.Start, ivs[i-1].Start, ivs[i-1].Length)
		}
		sum := &warm
		if iv.Start >= 0 {
			sum = &win
		}
		sum.Requests += iv.Requests
		for k, n := range iv.Errors {
			sum.Errors[k] += n
		}
	}
	if got := ivs[len(ivs)-1].End(); got != length {
		t.Errorf("%s: the last interval ends at %s, want the window's end %s", name, got, length)
	}
	if win.Requests != c.Requests {
		t.Errorf("%s: the window's intervals hold %d requests, the window %d", name, win.Requests, c.Requests)
	}
	for k := range win.Errors {
		if got, want := win.Errors[k], c.Errors[k].Count; got != want {
			t.Errorf("%s: the window's intervals hold %d %s errors, the window %d", name, got, results.ErrorClass(k), want)
		}
	}
	if warm.Requests != c.Outside.Warmup || warm.Errors.Total() != c.Outside.WarmupErrors {
		t.Errorf("%s: the warm-up's intervals hold %d requests and %d errors, the warm-up %d and %d",
			name, warm.Requests, warm.Errors.Total(), c.Outside.Warmup, c.Outside.WarmupErrors)
	}
}

// checkTimelineLog compares the timeline of rep, run against nginx, with
// nginx's access log bucketed into the same intervals by $msec.
//
// Where can a request land in different intervals on the two sides? nginx
// stamps $msec when it has sent the response (its cached time of the
// event loop's turn, in whole milliseconds); the client counts the
// request when it has read the last byte. So the two instants lie within
// the request's own life, between its start at the client and its end,
// less the millisecond $msec drops. A request counted on different sides
// of a boundary b was therefore in flight at b (at most one per
// connection slot: slots) or logged within a millisecond of it. Each
// interval's two counts may differ by at most that for each of its two
// boundaries. With a few slots and hundreds of requests a second, an
// interval misplaced by even a few per cent of its length, or the
// timeline anchored anywhere but the window's start, is outside it.
func checkTimelineLog(t *testing.T, rep results.Rep, lines []nginxtest.Line, slots int) {
	t.Helper()
	start := rep.Groups[0].Window.Start
	near := func(b time.Time) int {
		n := 0
		for _, l := range lines {
			if d := l.Time.Sub(b); d >= -time.Millisecond && d <= time.Millisecond {
				n++
			}
		}
		return n
	}
	for _, pt := range rep.Timeline.Points {
		from, to := start.Add(pt.Start), start.Add(pt.End())
		logged := 0
		for _, l := range lines {
			if !l.Time.Before(from) && l.Time.Before(to) {
				logged++
			}
		}
		slack := 2*slots + near(from) + near(to)
		t.Logf("interval at %6s: kaeload %5d, nginx %5d (may differ by %d)", pt.Start.Round(time.Millisecond), pt.Requests, logged, slack)
		if d := int(pt.Requests) - logged; d < -slack || d > slack {
			t.Errorf("interval at %s: kaeload counted %d requests, nginx logged %d: more than the %d that the boundaries can move", pt.Start, pt.Requests, logged, slack)
		}
	}
}

// TestTimelineOpenLoopGroups: an open loop (load.rate) over two pinned
// groups against the built-in target, at the shortest interval: every
// group's intervals and the total's add up exactly to the window's counts
// (checkRepTimeline), and the window's intervals together ran the rate
// asked.
func TestTimelineOpenLoopGroups(t *testing.T) {
	needCPUs(t, 2)
	p := builtinPlan(500*time.Millisecond, []int{0}, []int{1})
	p.Load.Interval = results.MinInterval
	p.Load = p.Load.SplitRate(200)
	rep := runOnce(t, p)
	var scheduled uint64
	for _, g := range rep.Groups {
		scheduled += g.Scheduled
	}
	tl := rep.Timeline
	t.Logf("%d points (%d in the window), %d requests of %d scheduled", len(tl.Points), len(tl.Window()), rep.Total.Requests, scheduled)
	if got, want := len(tl.Window()), 5; got != want {
		t.Errorf("%d intervals in the 500 ms window at %s, want %d", got, results.MinInterval, want)
	}
	if scheduled == 0 || rep.Total.Scheduled != scheduled {
		t.Errorf("scheduled %d (total %d): the open loop did not run", scheduled, rep.Total.Scheduled)
	}
}

// TestTCPServerElsewhere: a server on another machine that the plan does
// not reach over ssh gets a host of its own whose every counter is not
// available, with why, never a zero; the clients' namespace here is read
// at every boundary.
func TestTCPServerElsewhere(t *testing.T) {
	p := plan("192.0.2.1:443", time.Second, nil) // TEST-NET-1: not this machine
	c := &controller{plan: p}
	srcs := c.tcpSources()
	if len(srcs) != 2 || srcs[0].name != localHost || !srcs[0].client || srcs[1].read != nil || !srcs[1].server {
		t.Fatalf("sources %+v, want this machine's clients and an unreadable server", srcs)
	}
	ctx := t.Context()
	tr := firstTCP(ctx, srcs, t.Logf)
	now := time.Now()
	g := grid{start: now.Add(50 * time.Millisecond), end: now.Add(250 * time.Millisecond), ivl: results.MinInterval}
	tr.run(ctx, g, nil)
	b := results.NewTimelineBuilder(g.ivl, []string{""})
	b.SetHosts(tr.hosts)
	for h, s := range tr.series {
		s.wait(ctx)
		for k, r := range s.all() {
			b.AddTCP(k, h, r.start, r.length, tr.counts(h, r.v))
		}
	}
	tl, _ := b.Build()
	if len(tl.Hosts) != 2 || len(tl.Points) != 3 {
		t.Fatalf("hosts %+v, %d points: want 2 hosts and 3 points (-50ms to 200ms at 100ms)", tl.Hosts, len(tl.Points))
	}
	server := tl.Hosts[1]
	if server.Name != "192.0.2.1" || !server.Server || server.Client || len(server.Unavailable) != len(server.Counters) {
		t.Errorf("server host %+v, want every counter not available", server)
	}
	if why := server.Unavailable["ListenOverflows"]; !strings.Contains(why, "server.host") {
		t.Errorf("ListenOverflows not available because %q, want how to reach it", why)
	}
	for i := range tl.Points {
		if _, ok := tl.TCP(i, 1, "ListenOverflows"); ok {
			t.Errorf("point %d: the server's ListenOverflows available", i)
		}
		if _, ok := tl.TCP(i, 0, "ActiveOpens"); !ok {
			t.Errorf("point %d: this machine's ActiveOpens not available", i)
		}
	}
}
