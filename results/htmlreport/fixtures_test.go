package htmlreport

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/kaeload/kaeload/results"
)

// t0 is the start of every fixture run.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

const negTLS13 = "TLS1.3 TLS_AES_128_GCM_SHA256 X25519"

// hist returns a histogram holding n values base, base+step, … (µs).
func hist(n int, base, step int64) *results.Histogram {
	h := results.NewHistogram()
	for i := range int64(n) {
		if err := h.RecordValue(base + i*step); err != nil {
			panic(err)
		}
	}
	return h
}

// group returns a group that completed requests in a 2 s window starting
// at start, with latencies scaled by scale µs and its CPUs busy (busy < 0:
// not measured).
func group(index int, cpus string, start time.Time, requests uint64, scale int64, busy float64) results.Group {
	g := results.Group{
		Index: index, CPUs: cpus, Threads: 4, Slots: 50,
		Window: results.Window{Start: start, End: start.Add(2 * time.Second)},
		Counts: results.Counts{
			Requests: requests, Bytes: requests * 612, Status: [6]uint64{0, 0, requests, 0, 0, 0},
			Connections: requests, Handshakes: requests,
			Negotiated: map[string]uint64{negTLS13: requests},
		},
		Latency: results.Latency{
			Connect:   hist(200, 20, scale/10+1),
			Handshake: hist(200, 40*scale, scale),
			TTFB:      hist(200, 60*scale, 2*scale),
			Total:     hist(200, 70*scale, 2*scale),
		},
	}
	if busy >= 0 {
		g.CPU = &results.CPUUsage{CPUs: cpus, Seconds: busy * 8, Busy: busy}
	}
	return g
}

// rep returns repetition index with two groups (CPUs 0-3 and 4-7) that
// completed perGroup requests each in the same 2 s window, so the total
// rate is exactly perGroup req/s; busy are the groups' CPU busy fractions
// and server the server's (< 0: not measured).
func rep(index int, perGroup uint64, scale int64, busy [2]float64, server float64) results.Rep {
	start := t0.Add(time.Duration(index+1) * time.Minute)
	r := results.NewRep(index, []results.Group{
		group(0, "0-3", start, perGroup, scale, busy[0]),
		group(1, "4-7", start, perGroup, scale+1, busy[1]),
	})
	if server >= 0 {
		r.ServerCPU = &results.CPUUsage{Seconds: server * 2 * 16, Busy: server}
	}
	return r
}

// fixtureRun is three variants × two repetitions × two groups: a baseline
// and a two-point sweep series "kae-soft-{ratio}". Total rates per
// repetition: baseline 120,000 and 121,000 req/s (mean 120,500.0),
// kae-soft-0 150,000 and 152,000 (mean 151,000.0), kae-soft-33 180,000 and
// 182,000 (mean 181,000.0). Group 1 of kae-soft-33's second repetition was
// 95 % busy: the run is client-bound. kae-soft-0's first repetition has
// connect and status errors; a probe, a warning and a plan are set.
func fixtureRun() *results.Run {
	soft0 := []results.Rep{
		rep(0, 150000, 8, [2]float64{0.60, 0.62}, 0.85),
		rep(1, 152000, 8, [2]float64{0.61, 0.63}, 0.86),
	}
	g := &soft0[0].Groups[1]
	g.Errors.Add(results.ErrConnect, errors.New("dial tcp 127.0.0.1:8443: connect: connection refused"))
	g.Errors.Add(results.ErrConnect, nil)
	g.Errors.Add(results.ErrConnect, nil)
	g.Errors.Add(results.ErrStatus, errors.New("status 503"))
	g.Requests++ // the 503 is a response on top of the successes the rate counts
	g.Status[5]++
	soft0[0] = results.NewRep(0, soft0[0].Groups)
	soft0[0].ServerCPU = &results.CPUUsage{Seconds: 27.2, Busy: 0.85}

	soft33 := []results.Rep{
		rep(0, 180000, 6, [2]float64{0.70, 0.72}, 0.97),
		rep(1, 182000, 6, [2]float64{0.74, 0.95}, 0.98),
	}
	n := &soft33[1].Groups[0].Negotiated
	(*n)[negTLS13] -= 7
	(*n)["TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 X25519"] = 7
	soft33[1] = results.NewRep(1, soft33[1].Groups)
	soft33[1].ServerCPU = &results.CPUUsage{Seconds: 31.36, Busy: 0.98}

	base := []results.Rep{
		rep(0, 120000, 10, [2]float64{0.45, 0.50}, 0.99),
		rep(1, 121000, 10, [2]float64{0.46, 0.51}, 0.99),
	}
	base[0].Probes = map[string]results.ProbeReading{"nginx accepts": {Before: 100, After: 240100}}

	return &results.Run{
		SchemaVersion: results.SchemaVersion,
		Name:          "nginx-kae-test",
		Started:       t0,
		Finished:      t0.Add(4*time.Minute + 30*time.Second),
		Plan:          json.RawMessage(`{"name":"nginx-kae-test","repeat":2}`),
		Baseline:      "baseline",
		Warnings:      results.Warnings{{Message: "server restarted between repetitions of kae-soft-0"}},
		Variants: []results.Variant{
			{Name: "baseline", Reps: base},
			{Name: "kae-soft-0", Series: "kae-soft-{ratio}", Sweep: map[string]string{"ratio": "0"},
				Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "0"}, Reps: soft0},
			{Name: "kae-soft-33", Series: "kae-soft-{ratio}", Sweep: map[string]string{"ratio": "33"},
				Env: map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": "33"}, Reps: soft33},
		},
	}
}

// wideTimeline is the timeline of wideRun's baseline: 11 groups, 5 s of
// warm-up and a 30 s window at rate req/s in all, a stall at 12 s and
// accept-queue overflows at 3 s and 4 s.
func wideTimeline(rate uint64) tlSpec {
	return tlSpec{groups: 11, warmup: 5, window: 30, perGroup: rate / 11, stall: []int{12}, overflow: map[int]uint64{3: 4581, 4: 1200}}
}

// wideRun is a run shaped like examples/local-nginx.yaml grown to the size
// that pushes the report's tables wide: nine variants × five repetitions
// (two groups each; the baseline's eleven, with a timeline of 35 s: see
// wideTimeline, the others without one), a categorical sweep over certificate names ("{cert}":
// rsa2048 (the baseline), rsa4096, ecdsa-p256), rsa2048-noasm, and a
// numeric sweep ("kae-soft-{ratio}" over 0, 10, 33, 50, 100). Every
// repetition counted six-digit figures outside its window (warm-up,
// late, cut off, unanswered) and read TIME_WAIT, which fill the "not
// counted" figures; one repetition failed with a long reason.
func wideRun() *results.Run {
	r := &results.Run{
		SchemaVersion: results.SchemaVersion,
		Name:          "local-nginx-wide",
		Started:       t0,
		Finished:      t0.Add(20 * time.Minute),
		Plan:          json.RawMessage(`{"name":"local-nginx-wide","repeat":5}`),
		Baseline:      "rsa2048",
	}
	type spec struct {
		name, series, key, value string
		rate                     uint64
	}
	specs := []spec{
		{"rsa2048", "{cert}", "cert", "rsa2048", 1180},
		{"rsa4096", "{cert}", "cert", "rsa4096", 190},
		{"ecdsa-p256", "{cert}", "cert", "ecdsa-p256", 2950},
		{"rsa2048-noasm", "", "", "", 760},
		{"kae-soft-0", "kae-soft-{ratio}", "ratio", "0", 1500},
		{"kae-soft-10", "kae-soft-{ratio}", "ratio", "10", 1650},
		{"kae-soft-33", "kae-soft-{ratio}", "ratio", "33", 1810},
		{"kae-soft-50", "kae-soft-{ratio}", "ratio", "50", 1700},
		{"kae-soft-100", "kae-soft-{ratio}", "ratio", "100", 1200},
	}
	for vi, s := range specs {
		v := results.Variant{Name: s.name, Series: s.series}
		if s.key != "" {
			v.Sweep = map[string]string{s.key: s.value}
		}
		if s.series == "kae-soft-{ratio}" {
			v.Env = map[string]string{"OPENSSL_CONF": "/home/openssl.cnf", "KAE_GO_SOFT_RATIO": s.value}
		}
		for i := range 5 {
			rp := rep(vi*5+i, s.rate+uint64(i*i*7), 900, [2]float64{0.41, 0.44}, 0.97)
			if vi == 0 {
				rp = syntheticRep(i, wideTimeline(s.rate+uint64(i*i*7)), t0.Add(time.Duration(i+1)*time.Minute))
			}
			rp.Index = i
			tw := 28000 + 1234*i
			rp.TimeWait = &tw
			rp.Total.Outside = results.Outside{
				Warmup: 612345 + uint64(i), WarmupErrors: 1234, Late: 16, Abandoned: 12345,
				Unanswered: results.Stages{Connect: 1024, Handshake: 10240, Response: 1081},
			}
			v.Reps = append(v.Reps, rp)
		}
		r.Variants = append(r.Variants, v)
	}
	r.Variants[3].Reps[2].Failed = &results.Failure{Code: results.FailNoSuccess, Unanswered: &results.Stages{Handshake: 4}}
	return r
}
