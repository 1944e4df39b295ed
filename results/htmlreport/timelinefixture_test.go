package htmlreport

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// tlSpec describes a synthetic repetition with a timeline of one-second
// intervals: warmup of them before the window, window of them in it.
// Every group completes perGroup responses a second in the window, and
// i/(warmup+1) of that in the warm-up's i-th second (a ramp). In the
// window's seconds listed in stall every group completes a tenth of that
// and the server idles; in those of overflow the server's ListenOverflows
// grew by the given count and the clients' TCPSynRetrans by half of it,
// with a handshake p99 of 1.1 s. In the seconds of silent no handshake
// was timed (p50 and p99 zero).
type tlSpec struct {
	groups, warmup, window int
	perGroup               uint64
	stall                  []int
	overflow               map[int]uint64
	silent                 []int
}

// requests is what group g completes in second k (negative: warm-up).
func (s tlSpec) requests(k int) uint64 {
	switch {
	case k < 0:
		return s.perGroup * uint64(s.warmup+k+1) / uint64(s.warmup+1) // a ramp
	case contains(s.stall, k):
		return s.perGroup / 10
	}
	return s.perGroup
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// syntheticRep builds repetition index of s, its window starting at start.
func syntheticRep(index int, s tlSpec, start time.Time) results.Rep {
	n := s.warmup + s.window
	groups := make([]results.Group, s.groups)
	for g := range groups {
		var ivs []results.Interval
		var inWindow uint64
		for i := range n {
			k := i - s.warmup
			req := s.requests(k)
			ivs = append(ivs, results.Interval{Start: time.Duration(k) * time.Second, Length: time.Second, Requests: req, Started: req})
			if k >= 0 {
				inWindow += req
			}
		}
		cpus := strconv.Itoa(g*10) + "-" + strconv.Itoa(g*10+9)
		gr := results.Group{
			Index: g, CPUs: cpus, Threads: 11, Slots: 200,
			Window: results.Window{Start: start, End: start.Add(time.Duration(s.window) * time.Second)},
			Counts: results.Counts{
				Requests: inWindow, Bytes: inWindow * 612, Status: [6]uint64{0, 0, inWindow, 0, 0, 0},
				Connections: inWindow, Handshakes: inWindow, Negotiated: map[string]uint64{negTLS13: inWindow},
			},
			Latency: results.Latency{Connect: hist(20, 20, 3), Handshake: hist(20, 4000, 100), TTFB: hist(20, 6000, 200), Total: hist(20, 7000, 200)},
			CPU:     &results.CPUUsage{CPUs: cpus, Seconds: 0.62 * 10 * float64(s.window), Busy: 0.62},
		}
		if len(s.overflow) > 0 { // the run's own connections show the full queue
			gr.Counts.Sockets = results.Sockets{Read: inWindow, Retransmitted: 3, Retransmits: 3}
		}
		if s.groups > 1 {
			gr.Timeline = ivs
		}
		groups[g] = gr
	}
	r := results.NewRep(index, groups)
	r.ServerCPU = &results.CPUUsage{Seconds: 0.95 * 16 * float64(s.window), Busy: 0.95}
	tl := &results.Timeline{Interval: time.Second}
	overflows := make([]*uint64, n)
	retrans := make([]*uint64, n)
	for i := range n {
		k := i - s.warmup
		req := s.requests(k) * uint64(s.groups)
		p := results.Point{Interval: results.Interval{
			Start: time.Duration(k) * time.Second, Length: time.Second, Requests: req, Started: req,
			HandshakeP50: 5 * time.Millisecond, HandshakeP99: 40 * time.Millisecond,
			TotalP50: 7 * time.Millisecond, TotalP99: 60 * time.Millisecond,
			ProcessBusy: ptr(0.40), CPUsBusy: ptr(0.62),
		}, ServerBusy: ptr(0.95)}
		if contains(s.stall, k) {
			p.ServerBusy = ptr(0.02)
		}
		if c, ok := s.overflow[k]; ok {
			p.HandshakeP99 = 1100 * time.Millisecond
			overflows[i], retrans[i] = ptr(c), ptr(c/2)
		} else {
			overflows[i], retrans[i] = ptr(uint64(0)), ptr(uint64(0))
		}
		if contains(s.silent, k) {
			p.HandshakeP50, p.HandshakeP99 = 0, 0
		}
		tl.Points = append(tl.Points, p)
	}
	if len(s.overflow) > 0 {
		tl.Hosts = []results.TCPHost{
			{Name: "local", Client: true, Namespace: "net:[4026531840]@1c2d3e4f", Counters: []string{"TCPSynRetrans"},
				Deltas: map[string][]*uint64{"TCPSynRetrans": retrans}},
			{Name: "10.0.0.2", Server: true, Namespace: "net:[4026532000]@9a8b7c6d", Counters: []string{"ListenOverflows"},
				Deltas: map[string][]*uint64{"ListenOverflows": overflows}},
		}
	}
	r.Timeline = tl
	return r
}

// tlEvents is the kernel events of s as the analysis lists them
// (analysis.KernelEvents): in each overflow second, the clients'
// TCPSynRetrans and the server's ListenOverflows, hosts in the
// timeline's order.
func tlEvents(s tlSpec) []analysis.KernelEvent {
	var out []analysis.KernelEvent
	for k := -s.warmup; k < s.window; k++ {
		if c, ok := s.overflow[k]; ok {
			start := time.Duration(k) * time.Second
			out = append(out,
				analysis.KernelEvent{Start: start, Length: time.Second, Host: "local (clients)", Counter: "TCPSynRetrans", Count: c / 2},
				analysis.KernelEvent{Start: start, Length: time.Second, Host: "10.0.0.2 (server)", Counter: "ListenOverflows", Count: c})
		}
	}
	return out
}

// timelineRun is a run of the given variants × reps repetitions, each
// repetition built from s (its rate scaled by the variant's position, so
// variants differ).
func timelineRun(name string, variants, reps int, s tlSpec) *results.Run {
	r := &results.Run{
		SchemaVersion: results.SchemaVersion, Name: name, Started: t0, Finished: t0.Add(30 * time.Minute),
		Plan: json.RawMessage(`{"name":"` + name + `"}`),
	}
	for v := range variants {
		vr := results.Variant{Name: "variant-" + strconv.Itoa(v)}
		for i := range reps {
			sv := s
			sv.perGroup = s.perGroup + uint64(v)*s.perGroup/5 + uint64(i)*7
			vr.Reps = append(vr.Reps, syntheticRep(i, sv, t0.Add(time.Duration(v*reps+i+1)*time.Minute)))
		}
		r.Variants = append(r.Variants, vr)
	}
	r.Baseline = r.Variants[0].Name
	return r
}
