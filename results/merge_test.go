package results

import (
	"errors"
	"math"
	"testing"
	"time"
)

// histUS returns a histogram holding the given values in microseconds.
func histUS(values ...int64) *Histogram {
	h := NewHistogram()
	for _, v := range values {
		h.Record(time.Duration(v) * time.Microsecond)
	}
	return h
}

// seq returns n values a, a+step, a+2·step, ….
func seq(n int, a, step int64) []int64 {
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = a + int64(i)*step
	}
	return vs
}

func TestMergeExact(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	conn1, conn2 := seq(1000, 40, 1), seq(500, 900, 3)
	hs1, hs2 := seq(1000, 300, 2), seq(500, 2500, 11)
	tot1, tot2 := seq(1000, 800, 5), seq(500, 7000, 97)
	g1 := Group{
		Index: 0, CPUs: "0-9", Threads: 11, Slots: 200,
		Window: Window{Start: t0, End: t0.Add(10 * time.Second)},
		Counts: Counts{
			Requests: 1000, Bytes: 612000, Status: [6]uint64{0, 0, 990, 0, 0, 10},
			Connections: 1000, Handshakes: 1000,
			Negotiated: map[string]uint64{"TLS1.3 TLS_AES_128_GCM_SHA256 X25519": 1000},
		},
		Latency: Latency{Connect: histUS(conn1...), Handshake: histUS(hs1...), TTFB: histUS(tot1...), Total: histUS(tot1...)},
	}
	for range 10 {
		g1.Errors.Add(ErrStatus, errors.New("status 503"))
	}
	// Group 2's window starts 2 ms later and ends 3 ms later: clock noise
	// between worker processes.
	g2 := Group{
		Index: 1, CPUs: "10-19", Threads: 11, Slots: 100,
		Window: Window{Start: t0.Add(2 * time.Millisecond), End: t0.Add(10*time.Second + 3*time.Millisecond)},
		Counts: Counts{
			Requests: 500, Bytes: 306000, Status: [6]uint64{0, 0, 500, 0, 0, 0},
			Connections: 503, Handshakes: 500, Resumed: 2,
			Negotiated: map[string]uint64{"TLS1.3 TLS_AES_128_GCM_SHA256 X25519": 400, "TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 P-256": 100},
		},
		Latency: Latency{Connect: histUS(conn2...), Handshake: histUS(hs2...), TTFB: histUS(tot2...), Total: histUS(tot2...)},
	}
	g2.Errors.Add(ErrConnect, errors.New("connection refused"))
	g2.Errors.Add(ErrConnect, errors.New("second message is not kept"))
	g2.Errors.Add(ErrStatus, errors.New("status 502"))

	groups := []Group{g1, g2}
	total := Merge(groups)

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
		{"connect errors", total.Errors[ErrConnect].Count, 2},
		{"status errors", total.Errors[ErrStatus].Count, 11},
		{"all errors", total.Errors.Total(), 13},
		{"threads", uint64(total.Threads), 22},
		{"slots", uint64(total.Slots), 300},
	} {
		if c.got != c.want {
			t.Errorf("total %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if got, want := total.Errors[ErrConnect].First, "connection refused"; got != want {
		t.Errorf("first connect error = %q, want %q", got, want)
	}
	if got, want := total.Errors[ErrStatus].First, "status 503"; got != want {
		t.Errorf("first status error = %q, want %q (group 0's)", got, want)
	}
	if total.Index != TotalIndex || total.CPUs != "" {
		t.Errorf("total Index, CPUs = %d, %q, want %d, \"\"", total.Index, total.CPUs, TotalIndex)
	}

	// Exact histograms: identical to one histogram fed every value.
	for _, h := range []struct {
		name   string
		got    *Histogram
		values [][]int64
	}{
		{"connect", total.Latency.Connect, [][]int64{conn1, conn2}},
		{"handshake", total.Latency.Handshake, [][]int64{hs1, hs2}},
		{"ttfb", total.Latency.TTFB, [][]int64{tot1, tot2}},
		{"total", total.Latency.Total, [][]int64{tot1, tot2}},
	} {
		ref := histUS(append(append([]int64(nil), h.values[0]...), h.values[1]...)...)
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
	if got, want := total.Window, (Window{Start: t0, End: t0.Add(10*time.Second + 3*time.Millisecond)}); got != want {
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
	empty := Merge(nil)
	if empty.Requests != 0 || empty.Rate() != 0 || empty.Latency.Total == nil || empty.Latency.Total.TotalCount() != 0 {
		t.Errorf("Merge(nil) = %+v, want zero counts, zero rate and empty histograms", empty)
	}
	// Groups without histograms or windows (e.g. decoded with nulls) merge
	// without panicking; zero windows do not widen the total window.
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	w := Window{Start: t0, End: t0.Add(2 * time.Second)}
	got := Merge([]Group{{Counts: Counts{Requests: 3}}, {Window: w, Counts: Counts{Requests: 5}}})
	if got.Window != w || got.Requests != 8 || got.Rate() != 4 {
		t.Errorf("Merge = window %v requests %d rate %v, want %v 8 4", got.Window, got.Requests, got.Rate(), w)
	}
}

func TestRate(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		requests uint64
		window   Window
		want     float64
	}{
		{"zero window", 10, Window{}, 0},
		{"empty window", 10, Window{Start: t0, End: t0}, 0},
		{"inverted window", 10, Window{Start: t0.Add(time.Second), End: t0}, 0},
		{"two seconds", 10, Window{Start: t0, End: t0.Add(2 * time.Second)}, 5},
		{"half a second", 1, Window{Start: t0, End: t0.Add(500 * time.Millisecond)}, 2},
		{"no requests", 0, Window{Start: t0, End: t0.Add(time.Second)}, 0},
	}
	for _, tt := range tests {
		g := Group{Window: tt.window, Counts: Counts{Requests: tt.requests}}
		if got := g.Rate(); got != tt.want {
			t.Errorf("%s: Rate() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestGroupSpread(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	w := Window{Start: t0, End: t0.Add(time.Second)}
	groups := []Group{
		{Index: 0, Window: w, Counts: Counts{Requests: 150}},
		{Index: 1, Window: w, Counts: Counts{Requests: 200}},
		{Index: 2, Window: w, Counts: Counts{Requests: 100}},
	}
	got := GroupSpread(groups)
	want := Spread{N: 3, Min: 100, Max: 200, MinIndex: 2, MaxIndex: 1, Mean: 150, Pct: 200.0 / 3} // (200-100)/150 = 66.67 %
	if got.Pct-want.Pct > 1e-12 || want.Pct-got.Pct > 1e-12 {
		t.Errorf("GroupSpread Pct = %v, want %v", got.Pct, want.Pct)
	}
	got.Pct = want.Pct
	if got != want {
		t.Errorf("GroupSpread = %+v, want %+v", got, want)
	}
	if got := GroupSpread(nil); got != (Spread{}) {
		t.Errorf("GroupSpread(nil) = %+v, want zero", got)
	}
	if got := GroupSpread([]Group{{Index: 4}}); got != (Spread{N: 1, MinIndex: 4, MaxIndex: 4}) {
		t.Errorf("GroupSpread(one empty group) = %+v, want N 1, indexes 4, zero rates", got)
	}
}
