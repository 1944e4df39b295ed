package diagnosis

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestForeignOverflow: the case on recorded inputs. A listen(1)
// socket of another program overflows (ListenOverflows +493 in the
// shared namespace) while the run's connects are all fast. Where the
// target's listener was read and dropped nothing, or, in a run stored
// before listeners were read, where no connect took 1 s and no
// connection retransmitted, there is no diagnosis and listen_overflows is
// 0: the change is named on the host, not attributable to the run. The
// target's own drops with the retransmits or slow connects a drop forces,
// or (no listener read) the run's slow connects, make it a diagnosis.
func TestForeignOverflow(t *testing.T) {
	foreign := func() host {
		h := normalShared(6, 1000)
		h.grew["ListenOverflows"] = series(0, 0, 200, 100, 100, 93)
		h.grew["ListenDrops"] = series(0, 0, 200, 100, 100, 93)
		h.grew["ActiveOpens"] = every(6, 1100) // 100 connects a second are the foreign program's
		return h
	}
	for _, tc := range []struct {
		name     string
		listener []*uint64 // nil: no listener record
		slow     uint64
		retrans  uint64
		want     []string // diagnoses
		overflow uint64   // Repetition.ListenOverflows
		own      string   // in HostOnly.Own
	}{
		{"listener read, dropped nothing", every(6, 0), 0, 0, nil, 0, "the target's listener, port 443 on server: dropped nothing, its accept queue at most 3 of 511"},
		{"listener read, dropped nothing, slow connects", every(6, 0), 30, 0, nil, 0, "dropped nothing"},
		{"listener read, dropped, connections retransmitted", series(0, 0, 0, 0, 12, 0), 0, 7, []string{RuleAcceptQueue}, 12, ""},
		{"listener read, dropped, slow connects", series(0, 0, 0, 0, 12, 0), 30, 0, []string{RuleAcceptQueue}, 12, ""},
		// CI's case: one drop in 1,072 connects that cost none of them
		// anything (sk_drops counts discards of duplicates too).
		{"listener read, dropped 1, the run's connections clean", series(0, 0, 0, 0, 1, 0), 0, 0, nil, 0, "dropped 1, its accept queue at most 3 of 511 at the boundaries; 0 of 4,000 connects took 1 s or more; 0 of 4,000 connections retransmitted"},
		{"listener read in no interval", []*uint64{nil, nil, nil, nil, nil, nil}, 0, 0, nil, 0, "not read in any interval of the window"},
		{"no listener, fast connects", nil, 0, 0, nil, 0, "0 of 4,000 connects took 1 s or more"},
		{"no listener, slow connects", nil, 30, 0, []string{RuleAcceptQueue}, 493, ""},
		{"no listener, retransmits", nil, 0, 7, []string{RuleAcceptQueue}, 493, ""},
		{"no listener, sockets clean", nil, 0, 0, nil, 0, "0 of 4,000 connections retransmitted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := withHosts(synthRep(steady(4, 1000)), foreign())
			if tc.listener != nil {
				rep = withListener(rep, 3, tc.listener...)
			}
			if tc.slow > 0 {
				rep.Total.Latency.Connect.RecordN(1020*time.Millisecond, tc.slow)
			}
			if tc.listener != nil || tc.retrans > 0 || strings.Contains(tc.own, "connections retransmitted") {
				rep.Total.Sockets.Read, rep.Total.Sockets.Retransmitted = rep.Total.Connections, tc.retrans
			}
			got := Rep("v", &rep, Options{})
			if r := rules(got.Diagnoses); !slices.Equal(r, tc.want) {
				t.Fatalf("diagnoses %v, want %v (host only %+v)", r, tc.want, got.HostOnly)
			}
			if got.ListenOverflows == nil || *got.ListenOverflows != tc.overflow {
				t.Errorf("listen overflows %v, want %d", got.ListenOverflows, tc.overflow)
			}
			if tc.want != nil {
				if len(got.HostOnly) != 0 {
					t.Errorf("host only %+v, want none", got.HostOnly)
				}
				return
			}
			if len(got.HostOnly) != 1 || got.HostOnly[0].Rule != RuleAcceptQueue {
				t.Fatalf("host only %+v, want the accept-queue overflow", got.HostOnly)
			}
			line := got.HostOnly[0].Line()
			for _, w := range []string{"ListenOverflows +493, ListenDrops +493", "on local (clients and server in one network namespace, counted once)", NotTheRun, tc.own} {
				if !strings.Contains(line, w) {
					t.Errorf("line %q lacks %q", line, w)
				}
			}
			if len(got.Traffic) != 1 || !got.Traffic[0].Shared || got.Traffic[0].Other != 400 {
				t.Errorf("traffic %+v, want other traffic shared (400 more)", got.Traffic)
			}
			if w, want := got.Traffic[0].Words(), "ActiveOpens +4,400 on local, kaeload's connects 4,000: other traffic shared this network namespace (400 more)"; w != want {
				t.Errorf("traffic words %q, want %q", w, want)
			}
		})
	}
}

// TestForeignResets: a reset storm on a host whose connections were
// mostly another program's is not the run's; the same storm on a host
// whose connections were the run's is.
func TestForeignResets(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opens uint64 // a second
		want  []string
	}{{"the run's", 1000, []string{RuleResets}}, {"another program's", 10000, nil}} {
		g := map[string][]*uint64{"PassiveOpens": every(6, tc.opens), "OutRsts": every(6, 6000)}
		rep := withHosts(synthRep(steady(4, 1000)), host{name: "srv", server: true, grew: g})
		got := Rep("v", &rep, Options{})
		if r := rules(got.Diagnoses); !slices.Equal(r, tc.want) {
			t.Errorf("%s: diagnoses %v, want %v", tc.name, r, tc.want)
		}
		if tc.want == nil && (len(got.HostOnly) != 1 || !strings.Contains(got.HostOnly[0].Own, "kaeload's 4,000 connects were 10.0 % of the host's 40,000")) {
			t.Errorf("%s: host only %+v", tc.name, got.HostOnly)
		}
	}
}

// TestTrafficEdges: the connections in flight at the window's edges
// (the slots) are no other traffic.
func TestTrafficEdges(t *testing.T) {
	h := normalShared(6, 1000)
	h.grew["ActiveOpens"] = series(1000, 1000, 1050, 1000, 1000, 1000)
	rep := withHosts(synthRep(steady(4, 1000)), h)
	rep.Groups[0].Slots = 64
	got := Rep("v", &rep, Options{})
	if len(got.Traffic) != 1 || got.Traffic[0].Shared || got.Traffic[0].Other != 50 {
		t.Errorf("traffic %+v, want 50 more, not shared", got.Traffic)
	}
}

// TestListenerTooFewToFill: CI's case under a nice'd busy loop. The
// target's listener (backlog 4,096) dropped 2 while a foreign listen(1)
// socket overflowed, and some of the run's connections retransmitted (a
// loaded machine's tail-loss probes). The run's 64 connections in
// flight, 400 others the namespace opened and 3 queued at a boundary
// cannot fill a queue of 4,096, so the drops
// were not overflows: no diagnosis, 0 overflows, and the host's change
// named as not the run's, saying why. With a backlog of 128 the same
// connections could fill it, and the drops with the retransmits are
// the run's overflow again.
func TestListenerTooFewToFill(t *testing.T) {
	for _, tc := range []struct {
		backlog uint64
		want    []string
	}{{4096, nil}, {128, []string{RuleAcceptQueue}}} {
		h := normalShared(6, 1000)
		h.grew["ListenOverflows"] = series(0, 0, 200, 100, 100, 93)
		h.grew["ListenDrops"] = series(0, 0, 200, 100, 100, 93)
		h.grew["ActiveOpens"] = every(6, 1100)
		rep := withListener(withHosts(synthRep(steady(4, 1000)), h), 3, series(0, 0, 0, 0, 2, 0)...)
		rep.Timeline.Listener.Host, rep.Timeline.Listener.Backlog = "local", tc.backlog
		rep.Groups[0].Slots = 64
		rep.Total.Sockets.Read, rep.Total.Sockets.Retransmitted = rep.Total.Connections, 9
		got := Rep("v", &rep, Options{})
		if r := rules(got.Diagnoses); !slices.Equal(r, tc.want) {
			t.Fatalf("backlog %d: diagnoses %v, want %v (host only %+v)", tc.backlog, r, tc.want, got.HostOnly)
		}
		if tc.want != nil {
			continue
		}
		if got.ListenOverflows == nil || *got.ListenOverflows != 0 {
			t.Errorf("backlog %d: listen overflows %v, want 0", tc.backlog, got.ListenOverflows)
		}
		want := "at most 467 connections could wait in its queue of 4,096 (kaeload's 64 in flight and 0 failed, 400 others opened, 3 queued at a boundary): too few to fill it"
		if len(got.HostOnly) != 1 || !strings.Contains(got.HostOnly[0].Line(), want) {
			t.Errorf("backlog %d: host only %+v, want the overflow named with %q", tc.backlog, got.HostOnly, want)
		}
	}
}
