package plans

import (
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
)

// TestDuration: the windows of the schedule (a search's budget added),
// each warm-up plus window, cooldowns between them, and the server
// restarts bounded by the ready timeout. nginx-kae.yaml's shape: 9
// variants × 3 repetitions randomized, 5 s + 60 s, 2 s cooldown, 30 s
// ready timeout.
func TestDuration(t *testing.T) {
	variants := func(n int) []Variant {
		vs := make([]Variant, n)
		for i := range vs {
			vs[i].Name = string(rune('a' + i))
		}
		return vs
	}
	server := &Server{Host: "local", Ready: Ready{Kind: "tcp", Timeout: 30 * time.Second}}
	kae := &Plan{Variants: variants(9), Repeat: 3, Order: results.OrderRandomized, Cooldown: 2 * time.Second, Server: server,
		Load: Load{Warmup: 5 * time.Second, Duration: time.Minute}}
	seq := *kae
	seq.Order = results.OrderSequential
	noServer := *kae
	noServer.Server = nil
	search := *kae
	search.Variants = variants(4)
	search.Search = &Search{First: 1, Points: 3, Budget: 5}
	for _, tc := range []struct {
		name string
		p    *Plan
		want Duration
	}{
		{"randomized", kae, Duration{Windows: 27, Load: 27*65*time.Second + 26*2*time.Second, Restarts: 27, RestartBound: 27 * 30 * time.Second}},
		{"sequential", &seq, Duration{Windows: 27, Load: 27*65*time.Second + 26*2*time.Second, Restarts: 9, RestartBound: 9 * 30 * time.Second}},
		{"no server", &noServer, Duration{Windows: 27, Load: 27*65*time.Second + 26*2*time.Second}},
		// 1 fixed variant × 3 repetitions, then at most 5 searched windows.
		{"search", &search, Duration{Windows: 8, Load: 8*65*time.Second + 7*2*time.Second, Restarts: 8, RestartBound: 8 * 30 * time.Second, AtMost: true}},
	} {
		got := tc.p.Duration()
		got.Warmup, got.Window, got.Cooldown = 0, 0, 0
		if got != tc.want {
			t.Errorf("%s: Duration() = %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	if got, want := kae.Duration().String(), "27 windows of 5s warm-up + 1m0s, 2s cooldown between: 30m7s; 27 server restarts add at most 13m30s (30s ready timeout each): at most 43m37s in all"; got != want {
		t.Errorf("String()\n got %s\nwant %s", got, want)
	}
}
