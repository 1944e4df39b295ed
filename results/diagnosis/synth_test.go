package diagnosis

import (
	"math/rand/v2"
	"time"

	"github.com/kaeload/kaeload/results"
)

// The synthetic records of the tests: a repetition whose timeline has two
// warm-up seconds and n window seconds, each interval's requests given,
// and TCP hosts whose counters grow as the test says, interval by
// interval (warm-up first).

// tcpNames are the counters a host reads, as the runner lists them.
var tcpNames = []string{"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPTimeWaitOverflow",
	"TCPReqQFullDrop", "TCPReqQFullDoCookies", "SyncookiesSent", "TCPAbortOnData", "TCPAbortOnClose", "TCPAbortOnMemory",
	"ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "OutRsts", "RetransSegs"}

const warmupPoints = 2

// synthRep is a repetition with one group whose window intervals (one
// second each) completed perSecond[i] requests, after warmupPoints
// warm-up seconds at perSecond[0], and whose connects all took 2 ms.
func synthRep(perSecond []uint64) results.Rep {
	t := &results.Timeline{Interval: time.Second}
	add := func(k int, n uint64) {
		t.Points = append(t.Points, results.Point{Interval: results.Interval{
			Start: time.Duration(k) * time.Second, Length: time.Second, Requests: n, Started: n}})
	}
	for k := -warmupPoints; k < 0; k++ {
		add(k, perSecond[0])
	}
	var total uint64
	for k, n := range perSecond {
		add(k, n)
		total += n
	}
	rep := results.Rep{Groups: []results.Group{{}}, Timeline: t}
	rep.Total.Requests = total
	rep.Total.Connections = total // connection: close
	t0 := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	rep.Total.Window = results.Window{Start: t0, End: t0.Add(time.Duration(len(perSecond)) * time.Second)}
	rep.Total.Latency = results.NewLatency()
	rep.Total.Latency.Connect.RecordN(2*time.Millisecond, total)
	return rep
}

// steady is n seconds at rate requests each.
func steady(n int, rate uint64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = rate
	}
	return out
}

// noisy is n seconds around rate with a relative noise sd (Gaussian),
// times (1 + trend·i/(n-1)): a trend of 0.1 rises by 10 % over the window.
func noisy(rng *rand.Rand, n int, rate, sd, trend float64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		v := rate * (1 + trend*float64(i)/float64(n-1)) * (1 + sd*rng.NormFloat64())
		out[i] = uint64(max(v, 0) + 0.5)
	}
	return out
}

// host is a TCP host of a synthetic timeline: its counters' growth per
// point (warm-up first), by name; a nil entry is an unread interval.
type host struct {
	name                   string
	client, server, shared bool
	grew                   map[string][]*uint64
	unavailable            map[string]string
}

// every is the same growth v in each of n points.
func every(n int, v uint64) []*uint64 {
	out := make([]*uint64, n)
	for i := range out {
		out[i] = &v
	}
	return out
}

// series is the growth vs, one per point.
func series(vs ...uint64) []*uint64 {
	out := make([]*uint64, len(vs))
	for i := range vs {
		out[i] = &vs[i]
	}
	return out
}

// withHosts sets rep's TCP hosts.
func withHosts(rep results.Rep, hosts ...host) results.Rep {
	for _, h := range hosts {
		rep.Timeline.Hosts = append(rep.Timeline.Hosts, results.TCPHost{Name: h.name, Client: h.client, Server: h.server, Shared: h.shared,
			Counters: tcpNames, Unavailable: h.unavailable, Deltas: h.grew})
	}
	return rep
}

// normalShared is the host of a clean loopback run: clients and server
// in one namespace, every connection one active and one passive open,
// resets at 3 % of the sockets, as loopback nginx gives.
func normalShared(points int, perSecond uint64) host {
	return host{name: "local", client: true, server: true, shared: true, grew: map[string][]*uint64{
		"ActiveOpens": every(points, perSecond), "PassiveOpens": every(points, perSecond),
		"OutRsts": every(points, perSecond*6/100), "EstabResets": every(points, perSecond*5/100),
		"TCPAbortOnData": every(points, perSecond*4/100), "RetransSegs": every(points, 3)}}
}

// rules lists the rules of ds.
func rules(ds []Diagnosis) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Rule)
	}
	return out
}

// withListener sets rep's target listener: port 443 on host "server",
// backlog 511, dropping drops[i] in point i (nil: not read), its queue
// queue at every boundary.
func withListener(rep results.Rep, queue uint64, drops ...*uint64) results.Rep {
	q := &results.ListenQueue{Host: "server", Port: 443, Backlog: 511, Drops: drops}
	for range drops {
		q.Queue = append(q.Queue, &queue)
	}
	rep.Timeline.Listener = q
	return rep
}
