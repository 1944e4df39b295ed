package results

import (
	"encoding/json"
	"errors"
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
		Index: index, CPUs: cpus, Threads: 4, Connections: 50,
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
