package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
)

// TestServerCPUsVerdicts: nginx on CPU 0 measured four ways
// (fixture.ServerCPUsRun). A busy loop on the server's CPU is OTHER LOAD
// on the server, named; a client group on the server's CPU is "client
// and server share CPU 0", not the client's OTHER LOAD naming nginx; one
// connection leaves the server NOT SATURATED with Little's law beside
// the measured rate; the saturated baseline carries no flag.
func TestServerCPUsVerdicts(t *testing.T) {
	r := fixture.ServerCPUsRun()
	r.Thresholds = []results.Threshold{{Expr: "server_saturated == true", Metric: results.MetricServerSaturated, Op: "==", Value: 1}}
	m := Analyze(r)
	for _, tc := range []struct {
		variant                           string
		otherLoad, shared, notSat, shareN int
		shared0                           string
		line                              []string // in every repetition's lines
		passes                            bool
	}{
		{"nginx", 0, 0, 0, 0, "", nil, true},
		{"busy-loop", 3, 0, 0, 3, "OTHER LOAD on the server's CPU 0, busiest sh (pid 5151, nice 10)",
			[]string{"OTHER LOAD on the server: other processes took 43 % of the server's CPU 0, the server 55 %, kaeload 1 %, interrupts 1 %", "busiest: sh (pid 5151, nice 10, CPUs 0) 0.80 CPU-s"}, true},
		{"c1", 0, 0, 3, 0, "", []string{"NOT SATURATED: neither kaeload nor the server's CPUs were busy", "the connections in flight (1 / 1.2", "raise connections or groups"}, false},
		{"shared", 0, 3, 0, 3, "client and server share CPU 0", []string{"SHARED CPUS: client and server share CPU 0 (group 0 (CPUs 0))"}, true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			i := 0
			for i < len(r.Variants) && r.Variants[i].Name != tc.variant {
				i++
			}
			v := &m.Summary.Variants[i]
			if v.ServerOtherLoadReps != tc.otherLoad || v.SharedCPUReps != tc.shared || v.NotSaturatedReps != tc.notSat || v.ServerSharedReps != tc.shareN {
				t.Errorf("server other load %d, shared %d, not saturated %d, shared in all %d reps; want %d, %d, %d, %d",
					v.ServerOtherLoadReps, v.SharedCPUReps, v.NotSaturatedReps, v.ServerSharedReps, tc.otherLoad, tc.shared, tc.notSat, tc.shareN)
			}
			if tc.shared0 != "" && (len(v.ServerShared) != 1 || v.ServerShared[0].String() != tc.shared0) {
				t.Errorf("ServerShared = %q, want [%q]", v.ServerShared.Strings(), tc.shared0)
			}
			if v.SaturationReps != 3 {
				t.Errorf("%d repetitions judged for saturation, want 3", v.SaturationReps)
			}
			for j := range r.Variants[i].Reps {
				ra := &m.Reps[i][j]
				all := strings.Join([]string{ra.ServerOtherLoad.String(), ra.SharedCPUs.String(), ra.NotSaturated.String(), ra.OtherLoad.String()}, "\n")
				for _, w := range tc.line {
					if !strings.Contains(all, w) {
						t.Errorf("repetition %d: lines lack %q:\n%s", j+1, w, all)
					}
				}
				if len(tc.line) == 0 && strings.TrimSpace(all) != "" {
					t.Errorf("repetition %d: lines %q, want none", j+1, all)
				}
				if strings.Contains(ra.OtherLoad.String(), "nginx") {
					t.Errorf("repetition %d: the client's OTHER LOAD names the server: %s", j+1, ra.OtherLoad)
				}
			}
			for _, c := range m.Thresholds {
				if c.Variant == tc.variant && (c.Passed != tc.passes || !c.Measured) {
					t.Errorf("%s: passed %v (measured %v), want %v", c.Line(), c.Passed, c.Measured, tc.passes)
				}
			}
		})
	}
	// The shares of the busy loop's repetition: the CPU 100 % busy, the
	// server 55 %, kaeload its controller's 0.02 s of 2 s, interrupts 1 %.
	u, ok := RepServerCPUUse(&r.Variants[1].Reps[0])
	if !ok || !u.Measured || !u.OtherLoad {
		t.Fatalf("ServerCPUUse() = %+v, %v", u, ok)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{{"busy", u.Busy, 1}, {"server", u.Server, 0.55}, {"kaeload", u.Kaeload, 0.01}, {"interrupts", u.Interrupts, 0.01}, {"others", u.Others, 0.43}} {
		if math.Abs(f.got-f.want) > 1e-9 {
			t.Errorf("%s %.4f, want %.4f", f.name, f.got, f.want)
		}
	}
	// Interrupts already inside the server's time (no IRQ time accounting)
	// count as what the busy time leaves: 0.57 − 0.55 − 0.01 of their 0.06.
	loop, cpus := r.Variants[1].Reps[0], *r.Variants[1].Reps[0].ServerCPUs
	cpus.Busy = &results.CPUUsage{Seconds: 1.14, Busy: 0.57, IRQ: 0.12}
	loop.ServerCPUs = &cpus
	if u, _ := RepServerCPUUse(&loop); math.Abs(u.Interrupts-0.01) > 1e-9 || u.Others != 0 {
		t.Errorf("interrupts %.4f, others %.4f of a CPU 57 %% busy; want 0.01, 0", u.Interrupts, u.Others)
	}
	// The shared repetition: kaeload's worker on CPU 0 counts as
	// kaeload's, the server as the server's; nothing is left for others,
	// and the client group leaves nginx out of its busiest.
	rep := &r.Variants[3].Reps[0]
	if u, _ := RepServerCPUUse(rep); u.OtherLoad || math.Abs(u.Kaeload-0.46) > 1e-9 {
		t.Errorf("shared: kaeload %.3f of the server's CPU, other load %v; want 0.46, false", u.Kaeload, u.OtherLoad)
	}
	for _, gc := range RepGroupCPUs(rep) {
		if len(gc.Top) != 0 || gc.OtherLoad || math.Abs(gc.Server-0.52) > 1e-9 {
			t.Errorf("shared: group %d server %.3f, others %.3f %v, other load %v; want the server's 0.52, nothing else", gc.Index, gc.Server, gc.Others, gc.Top, gc.OtherLoad)
		}
	}
}

// TestSaturation: NOT SATURATED needs a judged closed loop whose
// server CPUs were not busy, no client-bound group, no group's CPUs busy
// or taken by others, no accelerator at work and Little's law agreeing
// with the rate; each exception alone withholds it.
func TestSaturation(t *testing.T) {
	base := func() results.Rep { return fixture.ServerCPUsRun().Variants[2].Reps[0] }
	for _, tc := range []struct {
		name           string
		edit           func(*results.Rep)
		judged, notSat bool
	}{
		{"one connection", func(*results.Rep) {}, true, true},
		{"server busy", func(r *results.Rep) { r.ServerCPU.Busy = 0.8 }, true, false},
		{"its CPUs busy with others", func(r *results.Rep) { r.ServerCPUs.Busy.Busy = 0.95 }, true, false},
		{"CPUs not read: the server's share alone", func(r *results.Rep) { r.ServerCPUs = nil }, true, true},
		{"client-bound", func(r *results.Rep) {
			g := &r.Groups[0]
			g.Process.Busy, g.CPU.Busy = 0.95, 0.95
		}, true, false},
		// The client short of CPU that kaeload did not use itself: the
		// window measured what else ran there, not the connections.
		{"the client's CPU busy, kaeload 60 % of it", func(r *results.Rep) {
			g := &r.Groups[0]
			g.Process.Busy, g.CPU.Busy = 0.6, 0.82
		}, true, false},
		{"others on the client's CPU, 70 % busy", func(r *results.Rep) { r.Groups[0].CPU.Busy = 0.7 }, true, false},
		{"accelerator at work", func(r *results.Rep) {
			r.Probes = map[string]results.ProbeReading{"a_failed": {Error: "no such file"}, "hpre_send": {Before: 10, After: 1610}}
		}, true, false},
		{"a probe that did not move", func(r *results.Rep) { r.Probes = map[string]results.ProbeReading{"hpre_send": {Before: 10, After: 10}} }, true, true},
		{"Little's law off by 60 %", func(r *results.Rep) {
			r.Total.Latency.Total = fixture.HistUS(2000)
		}, true, false},
		{"open loop", func(r *results.Rep) { r.Total.Scheduled = 1600 }, false, false},
		{"server CPU not measured", func(r *results.Rep) { r.ServerCPU = nil }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := base()
			tc.edit(&rep)
			s := AnalyzeRep(&rep).Saturation
			if s.Judged != tc.judged || s.NotSaturated != tc.notSat {
				t.Errorf("judged %v, not saturated %v; want %v, %v (%+v)", s.Judged, s.NotSaturated, tc.judged, tc.notSat, s)
			}
			if got := !AnalyzeRep(&rep).NotSaturated.IsZero(); got != tc.notSat {
				t.Errorf("NotSaturatedLine() given: %v, want %v", got, tc.notSat)
			}
		})
	}
	rep := base()
	// The histogram keeps two significant digits: the mean within 1 %.
	if s := AnalyzeRep(&rep).Saturation; rep.Total.Slots != 1 || math.Abs(s.MeanLatency.Seconds()/1.25e-3-1) > 0.01 || math.Abs(s.LittleRate/800-1) > 0.01 || s.Rate != 800 {
		t.Errorf("Little: %d connections / %s = %.1f req/s, measured %.1f; want 1 / 1.25ms = 800, 800", rep.Total.Slots, s.MeanLatency, s.LittleRate, s.Rate)
	}
}

// serverCPURun is a baseline and two variants, each of three repetitions
// of the same requests, whose server CPU seconds per repetition are
// given: the variants differ only in what a request cost the server.
func serverCPURun(seconds ...[3]float64) *results.Run {
	busy := []float64{0.5, 0.5}
	requests := [3][2]uint64{{120000, 120600}, {119500, 121100}, {120900, 119300}}
	r := &results.Run{SchemaVersion: results.SchemaVersion, Name: "server-cpu", Started: fixture.T0, Baseline: "baseline"}
	for i, secs := range seconds {
		v := results.Variant{Name: []string{"baseline", "same", "offload"}[i]}
		for j, s := range secs {
			v.Reps = append(v.Reps, fixture.Measured(fixture.Rep(j, 10, requests[j][0], requests[j][1]), busy, s, 0))
		}
		r.Variants = append(r.Variants, v)
	}
	return r
}

// TestServerCPUComparison: requests per server CPU-second are compared
// with the baseline's like req/s, per repetition. A variant that cost
// the server what the baseline did (an A/A: the same repetitions) is not
// called different; one that cost half (an offload, 2× the requests per
// server CPU-second at the same req/s) is, though its req/s is the
// baseline's; the two are a family of their own (Family 2), apart from
// req/s's.
func TestServerCPUComparison(t *testing.T) {
	base := [3]float64{3.9, 4.02, 3.95}
	half := [3]float64{1.96, 2.0, 1.97}
	s := Analyze(serverCPURun(base, base, half)).Summary
	same, offload := s.Variants[1], s.Variants[2]
	if c := same.ServerCPUComparison; c.Significant || c.DeltaPct != 0 || !c.Tested() || c.Family != 2 {
		t.Errorf("A/A: %+v, want tested, Δ 0, not significant, family 2", c)
	}
	c := offload.ServerCPUComparison
	if !c.Significant || !fixture.Near(c.DeltaPct, 100, 0.01) || c.Family != 2 || c.Test != stats.TestStudentLog {
		t.Errorf("half the server CPU: %+v, want about +100 %%, significant, family 2, %q", c, stats.TestStudentLog)
	}
	if offload.Comparison.Significant {
		t.Errorf("req/s of identical repetitions: %+v, want not significant", offload.Comparison)
	}
	st := offload.ServerCPUStats
	if want := stats.Summarize(ServerCPURates(&serverCPURun(base, base, half).Variants[2])); st != want || st.N != 3 || !st.HasCI || !(st.CI95Low < 2*60900 && 2*60900 < st.CI95High*1.01) {
		t.Errorf("ServerCPUStats %+v, want %+v, n 3 with a CI near 2 × 60,900", st, want)
	}
	if s.Variants[0].ServerCPUComparison.Test != "" {
		t.Errorf("the baseline: %+v, want the zero Comparison", s.Variants[0].ServerCPUComparison)
	}
}

// TestServerCPUComparisonMissing: without server CPU readings nothing is
// compared (TestNone), and without a measured baseline every variant says
// so (TestNoBaseline), as req/s's comparisons do.
func TestServerCPUComparisonMissing(t *testing.T) {
	r := serverCPURun([3]float64{3.9, 4.02, 3.95}, [3]float64{1.96, 2.0, 1.97})
	for i := range r.Variants[0].Reps {
		r.Variants[0].Reps[i].ServerCPU = nil
	}
	s := Analyze(r).Summary
	if c := s.Variants[1].ServerCPUComparison; c.Test != stats.TestNone || c.Significant || s.Variants[0].ServerCPUStats.N != 0 {
		t.Errorf("baseline without readings: %+v (baseline n %d), want %q", c, s.Variants[0].ServerCPUStats.N, stats.TestNone)
	}
	r.Baseline = "nonesuch"
	s = Analyze(r).Summary
	if c := s.Variants[1].ServerCPUComparison; c.Test != stats.TestNoBaseline {
		t.Errorf("no baseline: %+v, want %q", c, stats.TestNoBaseline)
	}
}
