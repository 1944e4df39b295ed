package results

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"
)

// t0 is the start of every fixture run.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

const negTLS13 = "TLS1.3 TLS_AES_128_GCM_SHA256 X25519"

// fixtureGroup returns a group with deterministic counts and histograms:
// 200 recorded values per histogram, spaced by scale µs, so percentiles
// are known and differ between groups.
func fixtureGroup(index int, cpus string, start time.Time, window time.Duration, requests uint64, scale int64) Group {
	g := Group{
		Index: index, CPUs: cpus, Threads: 4, Slots: 50,
		Window: Window{Start: start, End: start.Add(window)},
		Counts: Counts{
			Requests: requests, Bytes: requests * 612, Status: [6]uint64{0, 0, requests, 0, 0, 0},
			Connections: requests, Handshakes: requests,
			Negotiated: map[string]uint64{negTLS13: requests},
		},
		Latency: Latency{
			Connect:   histUS(seq(200, 20, scale/10+1)...),
			Handshake: histUS(seq(200, 40*scale, scale)...),
			TTFB:      histUS(seq(200, 60*scale, 2*scale)...),
			Total:     histUS(seq(200, 70*scale, 2*scale)...),
		},
	}
	return g
}

// fixtureRep returns repetition index of a variant whose groups completed
// the given numbers of requests in a 2 s window (group 1 starting 1 ms
// late), with latencies scaled by scale.
func fixtureRep(index int, scale int64, requests ...uint64) Rep {
	start := t0.Add(time.Duration(index) * time.Minute)
	groups := make([]Group, len(requests))
	for i, n := range requests {
		cpus := []string{"0-3", "4-7", "8-11"}[i]
		groups[i] = fixtureGroup(i, cpus, start.Add(time.Duration(i)*time.Millisecond), 2*time.Second, n, scale+int64(i))
	}
	return NewRep(index, groups)
}

// compareRun is two variants × three repetitions × two groups, the
// second variant clearly faster and with a few errors.
func compareRun() *Run {
	kae := []Rep{
		fixtureRep(0, 6, 180000, 181200),
		fixtureRep(1, 6, 181900, 180400),
		fixtureRep(2, 6, 180700, 182100),
	}
	g := &kae[1].Groups[1]
	g.Errors.Add(ErrConnect, errors.New("dial tcp 127.0.0.1:8443: connect: connection refused"))
	g.Errors.Add(ErrConnect, errors.New("dial tcp 127.0.0.1:8443: connect: connection reset"))
	g.Errors.Add(ErrStatus, errors.New("status 503"))
	g.Status[2]--
	g.Status[5]++
	g.Negotiated[negTLS13] -= 7
	g.Negotiated["TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 X25519"] = 7
	kae[1] = NewRep(1, kae[1].Groups)
	return &Run{
		SchemaVersion: SchemaVersion,
		Name:          "nginx-kae",
		Started:       t0,
		Finished:      t0.Add(5*time.Minute + 30*time.Second),
		Plan:          json.RawMessage(`{"name": "nginx-kae", "repeat": 3, "groups": [{"cpus": [0, 1, 2, 3]}, {"cpus": [4, 5, 6, 7]}]}`),
		Variants: []Variant{
			{Name: "baseline", Reps: []Rep{
				fixtureRep(0, 10, 120000, 120680),
				fixtureRep(1, 10, 119500, 121100),
				fixtureRep(2, 10, 120900, 119300),
			}},
			{Name: "kae", Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "33"}, Reps: kae},
		},
	}
}

// singleRun is one variant, one repetition, one unpinned group, with an
// empty TTFB histogram and no negotiated parameters.
func singleRun() *Run {
	g := fixtureGroup(0, "", t0, 1500*time.Millisecond, 4321, 25)
	g.Negotiated = nil
	g.Latency.TTFB = NewHistogram()
	g.Resumed = 12
	return &Run{
		SchemaVersion: SchemaVersion,
		Name:          "quick",
		Started:       t0,
		Finished:      t0.Add(3 * time.Second),
		Variants:      []Variant{{Name: "default", Reps: []Rep{NewRep(0, []Group{g})}}},
	}
}

// interruptedRun names its second variant as baseline, has a variant with
// one repetition and one with none, warnings, and a long error message.
func interruptedRun() *Run {
	soft := fixtureRep(0, 8, 150000, 149000, 151000)
	soft.Groups[2].Errors.Add(ErrTLS, errors.New("remote error: tls: handshake failure "+strings.Repeat("x", 200)))
	soft.Groups[2].Errors.Add(ErrTimeout, nil)
	soft = NewRep(0, soft.Groups)
	return &Run{
		SchemaVersion: SchemaVersion,
		Name:          "sweep",
		Started:       t0,
		Finished:      t0.Add(2 * time.Minute),
		Baseline:      "kae",
		Interrupted:   true,
		Warnings:      []string{"group 2 (CPUs 8-11) was 97 % busy: the result is client-bound"},
		Variants: []Variant{
			{Name: "baseline", Reps: []Rep{fixtureRep(0, 10, 120000, 120680, 119000), fixtureRep(1, 10, 119500, 121100, 120000)}},
			{Name: "kae", Reps: []Rep{fixtureRep(0, 6, 180000, 181200, 179000), fixtureRep(1, 6, 181900, 180400, 180000)}},
			{Name: "kae-soft-33", Env: map[string]string{"KAE_GO_SOFT_RATIO": "33"}, Reps: []Rep{soft}},
			{Name: "kae-soft-50", Env: map[string]string{"KAE_GO_SOFT_RATIO": "50"}},
		},
	}
}

// measured adds CPU readings and a probe to a fixture repetition: group i
// was busy[i] busy (4 CPUs over the 2 s window), the server used
// serverSeconds of CPU on 2 CPUs, and the probe "kae_ops" counted
// opsPerRequest operations per request of the window. probeErr, when not
// "", makes the probe fail instead.
func measured(rep Rep, busy []float64, serverSeconds, opsPerRequest float64, probeErr string) Rep {
	for i := range rep.Groups {
		g := &rep.Groups[i]
		g.CPU = &CPUUsage{CPUs: g.CPUs, Seconds: busy[i] * 8, Busy: busy[i]}
	}
	rep = NewRep(rep.Index, rep.Groups)
	rep.ServerCPU = &CPUUsage{CPUs: "12-13", Seconds: serverSeconds, Busy: serverSeconds / 4}
	before := 1e6 * float64(rep.Index+1)
	p := ProbeReading{Before: before, After: before + opsPerRequest*float64(rep.Total.Requests)}
	if probeErr != "" {
		p = ProbeReading{Error: probeErr}
	}
	rep.Probes = map[string]ProbeReading{"kae_ops": p}
	return rep
}

// sweepRun is a baseline and a swept series of four variants (ratio 0,
// 10, 100, 33 in plan order, so numeric order differs from plan and
// lexical order), three repetitions each, all with client and server CPU
// and a probe. ratio 33 is the fastest; ratio 0's first repetition has a
// client-bound group; one probe reading of ratio 33 failed.
func sweepRun() *Run {
	soft := func(ratio string, reps ...Rep) Variant {
		return Variant{
			Name: "kae-soft-" + ratio, Series: "kae-soft-{ratio}", Sweep: map[string]string{"ratio": ratio},
			Env:  map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": ratio},
			Reps: reps,
		}
	}
	busy := []float64{0.55, 0.56}
	return &Run{
		SchemaVersion: SchemaVersion,
		Name:          "nginx-kae-sweep",
		Started:       t0,
		Finished:      t0.Add(12 * time.Minute),
		Baseline:      "baseline",
		Variants: []Variant{
			{Name: "baseline", Reps: []Rep{
				measured(fixtureRep(0, 10, 120000, 120680), busy, 3.9, 0, ""),
				measured(fixtureRep(1, 10, 119500, 121100), busy, 3.9, 0, ""),
				measured(fixtureRep(2, 10, 120900, 119300), busy, 3.9, 0, ""),
			}},
			soft("0",
				measured(fixtureRep(0, 7, 170000, 170200), []float64{0.85, 0.97}, 2.8, 1, ""),
				measured(fixtureRep(1, 7, 169800, 170400), []float64{0.84, 0.86}, 2.8, 1, ""),
				measured(fixtureRep(2, 7, 170100, 169900), []float64{0.85, 0.87}, 2.8, 1, "")),
			soft("10",
				measured(fixtureRep(0, 7, 176000, 176400), busy, 2.9, 0.9, ""),
				measured(fixtureRep(1, 7, 176200, 175800), busy, 2.9, 0.9, ""),
				measured(fixtureRep(2, 7, 176600, 176000), busy, 2.9, 0.9, "")),
			soft("100",
				measured(fixtureRep(0, 10, 120200, 120400), busy, 3.9, 0, ""),
				measured(fixtureRep(1, 10, 120000, 120600), busy, 3.9, 0, ""),
				measured(fixtureRep(2, 10, 120500, 119900), busy, 3.9, 0, "")),
			soft("33",
				measured(fixtureRep(0, 6, 181000, 181400), busy, 3.0, 0.67, ""),
				measured(fixtureRep(1, 6, 181200, 180800), busy, 3.0, 0.67, "exit status 1: cat: /sys/class/kae/ops: No such file or directory"),
				measured(fixtureRep(2, 6, 180600, 181600), busy, 3.0, 0.67, "")),
		},
	}
}

// near reports whether got is within rel (relative) of want.
func near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// finite reports whether x is a number other than ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
