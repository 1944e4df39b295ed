package diagnosis

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
)

func TestZZDiagCorpus(t *testing.T) {
	out := os.Getenv("DCORPUS_OUT")
	if out == "" {
		t.Skip()
	}
	var b strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := 2 + rng.IntN(25)
		base := []float64{5, 30, 100, 1000, 20000}[rng.IntN(5)]
		var per []uint64
		switch rng.IntN(4) {
		case 0:
			per = steady(n, uint64(base))
		case 1:
			per = noisy(rng, n, base, 0.02, 0)
		case 2:
			per = noisy(rng, n, base, []float64{0.01, 0.05, 0.2}[rng.IntN(3)], []float64{-0.3, -0.05, 0.05, 0.3}[rng.IntN(4)])
		case 3:
			per = noisy(rng, n, base, 0.01, 0)
			for k := rng.IntN(4); k > 0; k-- {
				per[rng.IntN(n)] = uint64(base * []float64{0, 0.1, 0.4, 0.6}[rng.IntN(4)])
			}
		}
		rep := synthRep(per)
		if rng.IntN(4) == 0 { // a short last interval
			last := &rep.Timeline.Points[len(rep.Timeline.Points)-1]
			last.Length = time.Duration(rng.IntN(1000)) * time.Millisecond
		}
		points := n + warmupPoints
		val := func() []*uint64 {
			mode := rng.IntN(6)
			out := make([]*uint64, points)
			for i := range out {
				if rng.IntN(15) == 0 {
					continue
				}
				var v uint64
				switch mode {
				case 0, 1:
				case 2:
					v = uint64(rng.IntN(3))
				case 3:
					v = uint64(rng.IntN(200))
				default:
					v = uint64(base * rng.Float64() * 2)
				}
				out[i] = &v
			}
			return out
		}
		nh := rng.IntN(4)
		var hosts []host
		for h := 0; h < nh; h++ {
			hh := host{name: []string{"local", "server", "client"}[h], grew: map[string][]*uint64{}}
			switch rng.IntN(4) {
			case 0:
				hh.client, hh.server, hh.shared = true, true, true
			case 1:
				hh.server = true
			case 2:
				hh.client = true
			case 3:
				hh.client, hh.server = true, true
			}
			for _, name := range tcpNames {
				switch rng.IntN(12) {
				case 0:
					hh.unavailable = map[string]string{name: "gone"}
					if rng.IntN(2) == 0 {
						hh.unavailable["ListenDrops"] = "gone"
						hh.unavailable["SyncookiesSent"] = "other"
					}
				case 1:
				default:
					hh.grew[name] = val()
				}
			}
			if rng.IntN(3) == 0 {
				hh.grew["ActiveOpens"] = every(points, uint64(base))
				hh.grew["PassiveOpens"] = every(points, uint64(base))
			}
			hosts = append(hosts, hh)
		}
		rep = withHosts(rep, hosts...)
		if rng.IntN(3) == 0 {
			var drops []*uint64
			for i := 0; i < points; i++ {
				if rng.IntN(10) > 0 {
					v := uint64(rng.IntN(3) * rng.IntN(50))
					drops = append(drops, &v)
				} else {
					drops = append(drops, nil)
				}
			}
			rep = withListener(rep, uint64([]int{0, 3, 511, 600}[rng.IntN(4)]), drops...)
			switch rng.IntN(5) {
			case 0:
				rep.Timeline.Listener.Unavailable = "no such port"
			case 1:
				rep.Timeline.Listener.Backlog = 0
			case 2:
				rep.Timeline.Listener.Host = "local"
			}
		}
		switch rng.IntN(4) {
		case 0:
			rep.Total.Latency.Connect.RecordN(1500*time.Millisecond, uint64(rng.IntN(20)))
		case 1:
			rep.Total.Latency.Connect = nil
		}
		for _, c := range []results.ErrorClass{results.ErrConnect, results.ErrTLS, results.ErrRead, results.ErrWrite} {
			if rng.IntN(3) == 0 {
				rep.Total.Errors[c].Count = uint64(rng.IntN(300))
			}
		}
		if rng.IntN(2) == 0 {
			rep.Total.Sockets = results.Sockets{Read: uint64(rng.IntN(1000)), Reset: uint64(rng.IntN(10)), Retransmitted: uint64(rng.IntN(3))}
		}
		rep.Groups[0].Slots = rng.IntN(100)
		opts := Options{RepNoise: []float64{0, 0.01, 0.05}[rng.IntN(3)], Margin: []float64{0, 0.02, 0.1}[rng.IntN(3)]}
		r := Rep("v", &rep, opts)
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%d %s\n", trial, js)
		for _, d := range r.Diagnoses {
			fmt.Fprintf(&b, "  D %s | %s | %s | %s | %s | %s\n", d.Rule, d.Title, d.Cause, d.Figure, d.Consequence, d.Fix)
		}
		for _, h := range r.HostOnly {
			fmt.Fprintf(&b, "  H %s %s\n", h.Title, h.Line())
		}
		if r.Listener != nil {
			fmt.Fprintf(&b, "  L %s\n", r.Listener.Words())
		}
		for _, tr := range r.Traffic {
			fmt.Fprintf(&b, "  T %s\n", tr.Words())
		}
		for _, h := range r.Hosts {
			fmt.Fprintf(&b, "  R %s %v\n", h.Role(), h.Counters)
		}
		fmt.Fprintf(&b, "  U %q %s\n", r.StallsUnjudged(), r.Unjudged.Strings())
	}
	os.WriteFile(out, []byte(b.String()), 0o644)
}
