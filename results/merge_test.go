package results_test

import (
	"errors"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"math"
	"testing"
	"time"
)

func TestMergeExact(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	conn1, conn2 := fixture.Seq(1000, 40, 1), fixture.Seq(500, 900, 3)
	hs1, hs2 := fixture.Seq(1000, 300, 2), fixture.Seq(500, 2500, 11)
	tot1, tot2 := fixture.Seq(1000, 800, 5), fixture.Seq(500, 7000, 97)
	g1 := results.Group{
		Index: 0, CPUs: "0-9", Threads: 11, Slots: 200,
		Window: results.Window{Start: t0, End: t0.Add(10 * time.Second)},
		Counts: results.Counts{
			Requests: 1000, Bytes: 612000, Status: [6]uint64{0, 0, 990, 0, 0, 10},
			Connections: 1000, Handshakes: 1000,
			Negotiated: map[string]uint64{"TLS1.3 TLS_AES_128_GCM_SHA256 X25519": 1000},
		},
		Latency: results.Latency{Connect: fixture.HistUS(conn1...), Handshake: fixture.HistUS(hs1...), TTFB: fixture.HistUS(tot1...), Total: fixture.HistUS(tot1...)},
	}
	for range 10 {
		g1.Errors.Add(results.ErrStatus, errors.New("status 503"))
	}
	// Group 2's window starts 2 ms later and ends 3 ms later: clock noise
	// between worker processes.
	g2 := results.Group{
		Index: 1, CPUs: "10-19", Threads: 11, Slots: 100,
		Window: results.Window{Start: t0.Add(2 * time.Millisecond), End: t0.Add(10*time.Second + 3*time.Millisecond)},
		Counts: results.Counts{
			Requests: 500, Bytes: 306000, Status: [6]uint64{0, 0, 500, 0, 0, 0},
			Connections: 503, Handshakes: 500, Resumed: 2,
			Negotiated: map[string]uint64{"TLS1.3 TLS_AES_128_GCM_SHA256 X25519": 400, "TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 P-256": 100},
		},
		Latency: results.Latency{Connect: fixture.HistUS(conn2...), Handshake: fixture.HistUS(hs2...), TTFB: fixture.HistUS(tot2...), Total: fixture.HistUS(tot2...)},
	}
	g2.Errors.Add(results.ErrConnect, errors.New("connection refused"))
	g2.Errors.Add(results.ErrConnect, errors.New("second message is not kept"))
	g2.Errors.Add(results.ErrStatus, errors.New("status 502"))

	groups := []results.Group{g1, g2}
	total := results.Merge(groups)

	// Exact counts.
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"requests", total.Requests, 1500},
		{"bytes", total.Bytes, 918000},
		{"2xx", total.Status[2], 1490},
		{"5xx", total.Status[5], 10},
		{"connections opened", total.Connections, 1503},
		{"handshakes", total.Handshakes, 1500},
		{"resumed", total.Resumed, 2},
		{"negotiated TLS1.3", total.Negotiated["TLS1.3 TLS_AES_128_GCM_SHA256 X25519"], 1400},
		{"negotiated TLS1.2", total.Negotiated["TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 P-256"], 100},
		{"connect errors", total.Errors[results.ErrConnect].Count, 2},
		{"status errors", total.Errors[results.ErrStatus].Count, 11},
		{"all errors", total.Errors.Total(), 13},
		{"threads", uint64(total.Threads), 22},
		{"slots", uint64(total.Slots), 300},
	} {
		if c.got != c.want {
			t.Errorf("total %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if got, want := total.Errors[results.ErrConnect].First, "connection refused"; got != want {
		t.Errorf("first connect error = %q, want %q", got, want)
	}
	if got, want := total.Errors[results.ErrStatus].First, "status 503"; got != want {
		t.Errorf("first status error = %q, want %q (group 0's)", got, want)
	}
	if total.Index != results.TotalIndex || total.CPUs != "" {
		t.Errorf("total Index, CPUs = %d, %q, want %d, \"\"", total.Index, total.CPUs, results.TotalIndex)
	}

	// Exact histograms: identical to one histogram fed every value.
	for _, h := range []struct {
		name   string
		got    *results.Histogram
		values [][]int64
	}{
		{"connect", total.Latency.Connect, [][]int64{conn1, conn2}},
		{"handshake", total.Latency.Handshake, [][]int64{hs1, hs2}},
		{"ttfb", total.Latency.TTFB, [][]int64{tot1, tot2}},
		{"total", total.Latency.Total, [][]int64{tot1, tot2}},
	} {
		ref := fixture.HistUS(append(append([]int64(nil), h.values[0]...), h.values[1]...)...)
		if got, want := h.got.TotalCount(), int64(1500); got != want {
			t.Errorf("%s TotalCount = %d, want %d", h.name, got, want)
		}
		if !h.got.Equals(ref.Histogram) {
			t.Errorf("%s histogram differs from one fed all values", h.name)
		}
		for _, q := range []float64{0, 50, 90, 99, 99.9, 100} {
			if got, want := h.got.ValueAtQuantile(q), ref.ValueAtQuantile(q); got != want {
				t.Errorf("%s p%v = %d µs, want %d µs", h.name, q, got, want)
			}
		}
	}
	// Merging is not averaging: the total p99 lies in group 2's range, far
	// from the mean of the groups' p99s.
	p99 := total.Latency.Total.ValueAtQuantile(99)
	avg := (g1.Latency.Total.ValueAtQuantile(99) + g2.Latency.Total.ValueAtQuantile(99)) / 2
	if p99 == avg {
		t.Errorf("total p99 %d µs equals the average of group p99s", p99)
	}

	// Window: [earliest start, latest end]; rate = successes (responses
	// less the 11 status errors) / its length.
	if got, want := total.Window, (results.Window{Start: t0, End: t0.Add(10*time.Second + 3*time.Millisecond)}); got != want {
		t.Errorf("total window = %v, want %v", got, want)
	}
	if got, want := total.Rate(), (1500-11)/10.003; math.Abs(got-want) > 1e-9 {
		t.Errorf("total rate = %v, want %v", got, want)
	}
	if got, want := groups[1].Rate(), (500-1)/10.001; math.Abs(got-want) > 1e-9 {
		t.Errorf("group 1 rate = %v, want %v (its own window)", got, want)
	}

	// The inputs are untouched and share nothing with the total.
	total.Negotiated["TLS1.3 TLS_AES_128_GCM_SHA256 X25519"] = 0
	total.Latency.Total.Record(time.Second)
	if got, want := g1.Negotiated["TLS1.3 TLS_AES_128_GCM_SHA256 X25519"], uint64(1000); got != want {
		t.Errorf("group 0 negotiated after merge = %d, want %d", got, want)
	}
	if got, want := g1.Latency.Total.TotalCount(), int64(1000); got != want {
		t.Errorf("group 0 total histogram count after merge = %d, want %d", got, want)
	}
}

func TestMergeEdgeCases(t *testing.T) {
	empty := results.Merge(nil)
	if empty.Requests != 0 || empty.Rate() != 0 || empty.Latency.Total == nil || empty.Latency.Total.TotalCount() != 0 {
		t.Errorf("Merge(nil) = %+v, want zero counts, zero rate and empty histograms", empty)
	}
	// Groups without histograms or windows (e.g. decoded with nulls) merge
	// without panicking; zero windows do not widen the total window.
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	w := results.Window{Start: t0, End: t0.Add(2 * time.Second)}
	got := results.Merge([]results.Group{{Counts: results.Counts{Requests: 3}}, {Window: w, Counts: results.Counts{Requests: 5}}})
	if got.Window != w || got.Requests != 8 || got.Rate() != 4 {
		t.Errorf("Merge = window %v requests %d rate %v, want %v 8 4", got.Window, got.Requests, got.Rate(), w)
	}
}

func TestRate(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		requests uint64
		window   results.Window
		want     float64
	}{
		{"zero window", 10, results.Window{}, 0},
		{"empty window", 10, results.Window{Start: t0, End: t0}, 0},
		{"inverted window", 10, results.Window{Start: t0.Add(time.Second), End: t0}, 0},
		{"two seconds", 10, results.Window{Start: t0, End: t0.Add(2 * time.Second)}, 5},
		{"half a second", 1, results.Window{Start: t0, End: t0.Add(500 * time.Millisecond)}, 2},
		{"no requests", 0, results.Window{Start: t0, End: t0.Add(time.Second)}, 0},
	}
	for _, tt := range tests {
		g := results.Group{Window: tt.window, Counts: results.Counts{Requests: tt.requests}}
		if got := g.Rate(); got != tt.want {
			t.Errorf("%s: Rate() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
