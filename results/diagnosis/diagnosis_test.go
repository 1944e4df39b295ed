package diagnosis

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
)

// TestAAIdentical: identical steady seconds, with a clean run's counters
// (resets at a few per cent of the opens), give no diagnosis, and every
// rule judged.
func TestAAIdentical(t *testing.T) {
	rep := withHosts(synthRep(steady(30, 2000)), normalShared(warmupPoints+30, 2000))
	got := Rep("v", &rep, Options{})
	if len(got.Diagnoses) != 0 || len(got.Unjudged) != 0 || len(got.Stalls) != 0 {
		t.Fatalf("diagnoses %v, unjudged %q, stalls %v; want none", rules(got.Diagnoses), got.Unjudged, got.Stalls)
	}
	if r := got.Range; r == nil || r.Min != 2000 || r.Median != 2000 || r.Max != 2000 || r.Intervals != 30 {
		t.Errorf("range %+v, want 2000/2000/2000 over 30", r)
	}
	// The window's counters only: 30 seconds, not the warm-up's 2.
	if v, _, _ := got.Hosts[0].Get("ActiveOpens"); v != 30*2000 {
		t.Errorf("ActiveOpens over the window %d, want %d", v, 30*2000)
	}
	if v, ok := got.Hosts[0].Values["ListenOverflows"]; !ok || v != 0 {
		t.Errorf("ListenOverflows %d (%v), want 0: read and never grown", v, ok)
	}
	if got.ListenOverflows == nil || *got.ListenOverflows != 0 || !got.StallsJudged {
		t.Errorf("listen overflows %v, stalls judged %v: want 0 and true", got.ListenOverflows, got.StallsJudged)
	}
}

// TestAANoisy: seeded A/A trials, steady seconds with 3 % noise each:
// no stall ever, and "not steady" at most at the rate its 3σ bound
// allows (0.27 %): the statistical bound alone (the margin made
// negligible) is checked at 1 %, and with the default margin, which
// makes false alarms rarer still, at 0.5 %.
func TestAANoisy(t *testing.T) {
	const trials = 1000
	var notSteady, stalls, bare int
	for seed := range uint64(trials) {
		rng := rand.New(rand.NewPCG(seed, 21))
		rep := synthRep(noisy(rng, 30, 1500, 0.03, 0))
		if got := Rep("v", &rep, Options{Margin: 1e-6}); slices.Contains(rules(got.Diagnoses), RuleNotSteady) {
			bare++
		}
		got := Rep("v", &rep, Options{})
		for _, d := range got.Diagnoses {
			switch d.Rule {
			case RuleNotSteady:
				notSteady++
			case RuleStalls:
				stalls++
			default:
				t.Fatalf("seed %d: %s without counters", seed, d.Rule)
			}
		}
	}
	if bare > trials/100 {
		t.Errorf("not steady in %d of %d A/A trials by the 3σ bound alone, want at most %d", bare, trials, trials/100)
	}
	if stalls != 0 || notSteady > trials/200 {
		t.Errorf("false alarms in %d A/A trials: stalls %d (want 0), not steady %d (want at most %d)", trials, stalls, notSteady, trials/200)
	}
}

// TestStallAtKnownSeconds: a stall planted at known seconds is named at
// those seconds, with its rate, and left out of the trend; one at the
// window's first second and one at its last are found too.
func TestStallAtKnownSeconds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		at    []int // stalled seconds
		stall []Stall
	}{
		{"middle", []int{12, 13}, []Stall{{Start: 12 * time.Second, End: 14 * time.Second}}},
		{"first", []int{0}, []Stall{{Start: 0, End: time.Second}}},
		{"last", []int{29}, []Stall{{Start: 29 * time.Second, End: 30 * time.Second}}},
		{"two", []int{5, 20, 21, 22}, []Stall{{Start: 5 * time.Second, End: 6 * time.Second}, {Start: 20 * time.Second, End: 23 * time.Second}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secs := noisy(rng, 30, 1500, 0.02, 0)
			for _, s := range tc.at {
				secs[s] = 300 // a fifth of the rate
			}
			rep := synthRep(secs)
			got := Rep("v", &rep, Options{})
			if len(got.Stalls) != len(tc.stall) {
				t.Fatalf("stalls %+v, want at %+v", got.Stalls, tc.stall)
			}
			for i, s := range got.Stalls {
				if s.Start != tc.stall[i].Start || s.End != tc.stall[i].End {
					t.Errorf("stall %d at %v–%v, want %v–%v", i, s.Start, s.End, tc.stall[i].Start, tc.stall[i].End)
				}
				if s.Rate != 300 {
					t.Errorf("stall %d at %.1f req/s, want 300", i, s.Rate)
				}
			}
			if r := rules(got.Diagnoses); !slices.Equal(r, []string{RuleStalls}) {
				t.Fatalf("diagnoses %v, want only %s", r, RuleStalls)
			}
			d := got.Diagnoses[0]
			for _, s := range tc.stall {
				if want := notes.Span(s.Start.Seconds(), s.End.Seconds()); !strings.Contains(d.Cause.String(), want) {
					t.Errorf("cause %q does not name %s", d.Cause.String(), want)
				}
			}
			if got.Range.Min != 300 {
				t.Errorf("range min %.1f, want the stall's 300", got.Range.Min)
			}
			if d.Stalls == nil || d.Fix.IsZero() || d.Consequence.IsZero() || d.Figure == "" {
				t.Errorf("incomplete diagnosis %+v", d)
			}
		})
	}
}

// TestNotSteadyPlanted: a rate that rises by 15 % over the window is
// named rising, with the warm-up as the fix; one that falls by 15 %
// falling; one that rises by 1 %, less than the equivalence margin, or
// by 3 % where the repetitions differ by 5 %, is not named.
func TestNotSteadyPlanted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trend float64
		opts  Options
		want  string // "" = none; else a word of the fix
	}{
		{"rising", 0.15, Options{}, "warm-up"},
		{"falling", -0.15, Options{}, "slows"},
		{"within the margin", 0.01, Options{}, ""},
		{"within the repetitions' noise", 0.03, Options{RepNoise: 0.05}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			missed := 0
			for seed := range uint64(50) {
				rep := synthRep(noisy(rand.New(rand.NewPCG(seed, 3)), 30, 1500, 0.01, tc.trend))
				got := Rep("v", &rep, tc.opts)
				i := slices.IndexFunc(got.Diagnoses, func(d Diagnosis) bool { return d.Rule == RuleNotSteady })
				switch {
				case tc.want == "" && i >= 0:
					t.Fatalf("seed %d: named %+v", seed, got.Diagnoses[i])
				case tc.want != "" && i < 0:
					missed++
				case tc.want != "" && !strings.Contains(got.Diagnoses[i].Fix.String(), tc.want):
					t.Fatalf("seed %d: fix %q, want it to say %q", seed, got.Diagnoses[i].Fix.String(), tc.want)
				}
			}
			if missed > 0 {
				t.Errorf("a %+.0f %% trend missed in %d of 50 windows", tc.trend*100, missed)
			}
		})
	}
}

// TestAcceptQueueCounts: overflow counts planted interval by interval on
// a server of its own are reported exactly, over the window only (the
// warm-up's left out), with the clients' SYN retransmits and the connects
// of 1 s or more from the connect histogram.
func TestAcceptQueueCounts(t *testing.T) {
	rep := withHosts(synthRep(steady(4, 1000)),
		host{name: "client", client: true, grew: map[string][]*uint64{
			"ActiveOpens":   every(6, 1000),
			"TCPSynRetrans": series(9, 9, 11, 0, 20, 3),
		}},
		host{name: "server", server: true, grew: map[string][]*uint64{
			"PassiveOpens":    every(6, 1000),
			"ListenOverflows": series(50, 50, 1234, 0, 2000, 7),
			"ListenDrops":     series(50, 50, 1300, 0, 2000, 7),
		}})
	rep.Total.Latency.Connect = results.NewHistogram()
	rep.Total.Latency.Connect.RecordN(2*time.Millisecond, 3966)
	rep.Total.Latency.Connect.RecordN(1030*time.Millisecond, 30)
	rep.Total.Latency.Connect.RecordN(3050*time.Millisecond, 4)
	got := Rep("v", &rep, Options{})
	if r := rules(got.Diagnoses); !slices.Equal(r, []string{RuleAcceptQueue}) {
		t.Fatalf("diagnoses %v, want %s", r, RuleAcceptQueue)
	}
	d := got.Diagnoses[0]
	if d.Title != "accept-queue overflow" || got.ListenOverflows == nil || *got.ListenOverflows != 3241 {
		t.Errorf("title %q, listen overflows %v: want accept-queue overflow and 3241", d.Title, got.ListenOverflows)
	}
	want := []Counter{{Host: "client", Name: "TCPSynRetrans", Value: 34}, {Host: "server", Name: "ListenOverflows", Value: 3241}, {Host: "server", Name: "ListenDrops", Value: 3307}}
	if !slices.Equal(d.Counters, want) {
		t.Errorf("counters %+v, want %+v", d.Counters, want)
	}
	for _, s := range []string{"ListenOverflows +3,241", "ListenDrops +3,307 on server (the server)", "TCPSynRetrans +34 on client (the clients)", "34 of 4,000 connects (0.85 %) took 1 s or more"} {
		if !strings.Contains(d.Figure, s) {
			t.Errorf("figure %q lacks %q", d.Figure, s)
		}
	}
	for _, s := range []string{"backlog=", "net.core.somaxconn", "net.ipv4.tcp_max_syn_backlog"} {
		if !strings.Contains(d.Fix.String(), s) {
			t.Errorf("fix %q lacks %q", d.Fix.String(), s)
		}
	}
	if !strings.Contains(d.Consequence.String(), "34 connects waited 1 s or more") {
		t.Errorf("consequence %q does not count the slow connects", d.Consequence.String())
	}
}

// TestSharedCountedOnce: clients and server in one namespace are one
// host; its counters appear once each in the figure and the counters,
// said to be both sides'.
func TestSharedCountedOnce(t *testing.T) {
	h := normalShared(6, 1000)
	h.grew["ListenOverflows"] = every(6, 10)
	h.grew["ListenDrops"] = every(6, 10)
	h.grew["TCPSynRetrans"] = every(6, 4)
	rep := withListener(withHosts(synthRep(steady(4, 1000)), h), 0, every(6, 10)...)
	rep.Total.Sockets.Read, rep.Total.Sockets.Retransmitted = rep.Total.Connections, 16
	got := Rep("v", &rep, Options{})
	if len(got.Diagnoses) != 1 {
		t.Fatalf("diagnoses %v, want one", rules(got.Diagnoses))
	}
	d := got.Diagnoses[0]
	want := []Counter{{Host: "local", Name: "ListenOverflows", Value: 40}, {Host: "local", Name: "ListenDrops", Value: 40}, {Host: "local", Name: "TCPSynRetrans", Value: 16}}
	if !slices.Equal(d.Counters, want) {
		t.Errorf("counters %+v, want %+v", d.Counters, want)
	}
	if n := strings.Count(d.Figure, "ListenOverflows"); n != 1 {
		t.Errorf("figure names ListenOverflows %d times: %q", n, d.Figure)
	}
	if !strings.Contains(d.Figure, "ListenOverflows +40, ListenDrops +40, TCPSynRetrans +16 on local (clients and server in one network namespace, counted once); ") {
		t.Errorf("figure %q does not say the namespace is shared", d.Figure)
	}
}

// TestNotAvailable: a server whose counters are not available is said
// so, never given a zero: the figure says "not available" with why, its
// counts are absent, and the overflow is named only as probable, from
// SYN retransmits with slow connects. A counter unread in one interval
// of the window is a lower bound, said so.
func TestNotAvailable(t *testing.T) {
	why := map[string]string{}
	for _, n := range tcpNames {
		why[n] = "open /proc/net/netstat: permission denied"
	}
	mk := func(slow bool) results.Rep {
		rep := withHosts(synthRep(steady(4, 1000)),
			host{name: "client", client: true, grew: map[string][]*uint64{"TCPSynRetrans": series(0, 0, 5, 5, 5, 5)}},
			host{name: "server", server: true, unavailable: why})
		if slow {
			rep.Total.Latency.Connect.RecordN(1020*time.Millisecond, 12)
		}
		return rep
	}
	rep := mk(true)
	got := Rep("v", &rep, Options{})
	if r := rules(got.Diagnoses); !slices.Equal(r, []string{RuleAcceptQueue}) {
		t.Fatalf("diagnoses %v, want a probable %s", r, RuleAcceptQueue)
	}
	d := got.Diagnoses[0]
	if !strings.Contains(d.Cause.String(), "probably") || !strings.Contains(d.Figure, "ListenOverflows, ListenDrops not available (open /proc/net/netstat: permission denied) on server") {
		t.Errorf("cause %q, figure %q: want probable, and not available with why", d.Cause.String(), d.Figure)
	}
	if strings.Contains(d.Figure, "ListenOverflows +0") {
		t.Errorf("figure %q gives an unavailable counter a zero", d.Figure)
	}
	if got.ListenOverflows != nil {
		t.Errorf("listen overflows %d, want not available", *got.ListenOverflows)
	}
	srv := got.Hosts[1]
	if _, ok := srv.Values["ListenOverflows"]; ok || srv.Unavailable["ListenOverflows"] == "" {
		t.Errorf("server counts %+v: want ListenOverflows unavailable, not a value", srv)
	}
	rep = mk(false)
	if got := Rep("v", &rep, Options{}); len(got.Diagnoses) != 0 {
		t.Errorf("without slow connects: %v, want none", rules(got.Diagnoses))
	}

	// One window interval not read: a lower bound.
	rep = withHosts(synthRep(steady(4, 1000)), host{name: "server", server: true, grew: map[string][]*uint64{
		"ListenOverflows": {new(uint64), new(uint64), nil, series(7)[0], series(8)[0], series(9)[0]}}})
	rep.Total.Latency.Connect.RecordN(1020*time.Millisecond, 1) // the run's own: a SYN retransmitted
	got = Rep("v", &rep, Options{})
	if len(got.Diagnoses) != 1 || !strings.Contains(got.Diagnoses[0].Figure, "ListenOverflows at least +24 (1 interval not read)") {
		t.Errorf("diagnoses %+v, want a lower bound of 24", got.Diagnoses)
	}
}

// TestKernelRules: SYN cookies, TIME_WAIT overflow and reset storms are
// named from planted counts, exactly; resets are a storm only when they
// are at least half the connections and at least MinResets, and the
// close race's (TCPAbortOnClose, TCPAbortOnData) only when requests
// failed.
func TestKernelRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grew   map[string]uint64 // per window interval, on the server
		failed uint64            // read errors in the window
		want   []string
		words  []string // in the figure
	}{
		{"syn cookies", map[string]uint64{"SyncookiesSent": 25, "TCPReqQFullDoCookies": 25}, 0, []string{RuleSYNCookies}, []string{"SyncookiesSent +100", "TCPReqQFullDoCookies +100", "TCPReqQFullDrop +0"}},
		{"syn drops", map[string]uint64{"TCPReqQFullDrop": 3}, 0, []string{RuleSYNCookies}, []string{"TCPReqQFullDrop +12"}},
		{"time wait", map[string]uint64{"TCPTimeWaitOverflow": 500}, 0, []string{RuleTimeWait}, []string{"TCPTimeWaitOverflow +2,000"}},
		{"reset storm", map[string]uint64{"OutRsts": 600, "EstabResets": 590}, 0, []string{RuleResets}, []string{"OutRsts +2,400", "EstabResets +2,360"}},
		// CI's saturated nginx: every request answered, the resets the
		// close race's, and a few more.
		{"close race", map[string]uint64{"OutRsts": 585, "EstabResets": 700, "TCPAbortOnData": 322, "TCPAbortOnClose": 234}, 0, nil, nil},
		{"close race failing requests", map[string]uint64{"OutRsts": 585, "EstabResets": 700, "TCPAbortOnData": 322, "TCPAbortOnClose": 234}, 1, []string{RuleResets}, []string{"OutRsts +2,340", "TCPAbortOnData +1,288", "TCPAbortOnClose +936"}},
		{"storm beside the close race", map[string]uint64{"OutRsts": 900, "TCPAbortOnData": 200, "TCPAbortOnClose": 100}, 0, []string{RuleResets}, []string{"OutRsts +3,600"}},
		{"resets of a clean run", map[string]uint64{"OutRsts": 40}, 0, nil, nil},
		{"resets below half", map[string]uint64{"OutRsts": 450}, 0, nil, nil},
		{"few resets", map[string]uint64{"OutRsts": 24}, 0, nil, nil}, // all of a small window's, under MinResets
	} {
		t.Run(tc.name, func(t *testing.T) {
			perSecond := uint64(1000)
			if tc.name == "few resets" {
				perSecond = 30
			}
			g := map[string][]*uint64{"PassiveOpens": every(6, perSecond)}
			for n, v := range tc.grew {
				g[n] = every(6, v)
			}
			rep := withHosts(synthRep(steady(4, perSecond)), host{name: "srv", server: true, grew: g})
			rep.Total.Sockets.Retransmitted, rep.Total.Sockets.Read = 1, rep.Total.Connections // the run's own: a full queue shows
			rep.Total.Counts.Errors[results.ErrRead].Count = tc.failed
			got := Rep("v", &rep, Options{})
			if r := rules(got.Diagnoses); !slices.Equal(r, tc.want) {
				t.Fatalf("diagnoses %v, want %v", r, tc.want)
			}
			for _, w := range tc.words {
				if !strings.Contains(got.Diagnoses[0].Figure, w) {
					t.Errorf("figure %q lacks %q", got.Diagnoses[0].Figure, w)
				}
			}
		})
	}
}

// TestClientCountersNotTheServers: a host that only runs clients
// has listeners of its own (sshd, …) whose overflows and SYN cookies are
// not the server's: they name nothing.
func TestClientCountersNotTheServers(t *testing.T) {
	rep := withHosts(synthRep(steady(4, 1000)), host{name: "client", client: true, grew: map[string][]*uint64{
		"ActiveOpens": every(6, 1000), "ListenOverflows": every(6, 50), "ListenDrops": every(6, 50), "SyncookiesSent": every(6, 50)}})
	rep.Total.Latency.Connect.RecordN(1020*time.Millisecond, 12)
	if got := Rep("v", &rep, Options{}); len(got.Diagnoses) != 0 {
		t.Errorf("diagnoses %v, want none", rules(got.Diagnoses))
	}
}

// TestShortWindow: two seconds are too few to judge stalls or a trend:
// each rule says why, and nothing is named.
func TestShortWindow(t *testing.T) {
	rep := synthRep([]uint64{2000, 100})
	got := Rep("v", &rep, Options{})
	if len(got.Diagnoses) != 0 || len(got.Unjudged) != 2 || got.StallsJudged {
		t.Fatalf("diagnoses %v, unjudged %q; want none and two reasons", rules(got.Diagnoses), got.Unjudged)
	}
	if !strings.HasPrefix(got.Unjudged[0].String(), "stalls: 2 intervals") || !strings.HasPrefix(got.Unjudged[1].String(), "not steady: 2 intervals") ||
		got.Unjudged[0].S("rule") != RuleStalls || got.Unjudged[1].S("rule") != RuleNotSteady {
		t.Errorf("unjudged %q", got.Unjudged)
	}
	// A cut last interval (0.2 s of 1 s) is not judged: a 30 s window
	// ending in a sliver is no stall.
	rep = synthRep(steady(30, 1500))
	last := &rep.Timeline.Points[len(rep.Timeline.Points)-1]
	last.Length, last.Requests = 200*time.Millisecond, 10
	if got := Rep("v", &rep, Options{}); len(got.Diagnoses) != 0 || got.Range.Intervals != 29 {
		t.Errorf("diagnoses %v over %d intervals, want none over 29", rules(got.Diagnoses), got.Range.Intervals)
	}
}

// TestRunBeforeTimeline: a run stored before timelines gives "no
// timeline" for each repetition: no diagnosis, no error.
func TestRunBeforeTimeline(t *testing.T) {
	r, err := fixture.BeforeTimelineRun()
	if err != nil {
		t.Fatal(err)
	}
	got := Run(r)
	if len(got) != 1 || len(got[0]) != 2 {
		t.Fatalf("%d variants, want 1 of 2 repetitions", len(got))
	}
	for i, rep := range got[0] {
		if !rep.NoTimeline || len(rep.Diagnoses) != 0 || rep.Range != nil || rep.Hosts != nil {
			t.Errorf("rep %d: %+v, want no timeline and nothing else", i, rep)
		}
	}
}

// TestRunRepNoise: Run gives each repetition its variant's repetition
// spread, so a trend the windows' own spread swamps is not named, while
// the same repetition alone is.
func TestRunRepNoise(t *testing.T) {
	rising := synthRep(noisy(rand.New(rand.NewPCG(7, 7)), 30, 1500, 0.01, 0.06))
	if got := Rep("v", &rising, Options{}); !slices.Contains(rules(got.Diagnoses), RuleNotSteady) {
		t.Fatalf("alone: %v, want %s", rules(got.Diagnoses), RuleNotSteady)
	}
	r := &results.Run{Variants: []results.Variant{{Name: "v"}}}
	for i, scale := range []uint64{10, 13, 8} { // repetitions 25 % apart
		rep := rising
		if i > 0 {
			rep = synthRep(steady(30, 150*scale))
		}
		rep.Index = i
		r.Variants[0].Reps = append(r.Variants[0].Reps, rep)
	}
	for i, rep := range Run(r)[0] {
		if len(rep.Diagnoses) != 0 {
			t.Errorf("rep %d: %v, want none: the repetitions differ more than the trend", i, rules(rep.Diagnoses))
		}
	}
}
