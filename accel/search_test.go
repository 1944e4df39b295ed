package accel

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/search"
)

// rig runs requests of sweepBase CPU and one signature, 16 at a time, on
// one CPU (GOMAXPROCS 1), with a goroutine that soaks up the idle time so
// that the process always wants its CPU. A busy machine gives it a share
// of a CPU that changes from moment to moment, so the rig runs the device
// on the process's CPU time (clockNow, clockSleep) and counts rates per
// CPU-second: the device keeps its ratio to the CPU.
type rig struct {
	t     *testing.T
	key   crypto.Signer
	share atomic.Uint64 // float64 bits: the share of a CPU, for sleeps
}

func newRig(t *testing.T) *rig {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	g := &rig{t: t, key: key}
	g.share.Store(math.Float64bits(1))
	return g
}

// cpuClock is the process's CPU time as a time.
func cpuClock() time.Time { return t0.Add(processCPU()) }

// sleep returns once the process's CPU time reaches until, sleeping the
// wall time the share of a CPU it gets makes of what is left.
func (g *rig) sleep(until time.Time) {
	for left := until.Sub(cpuClock()); left > 0; left = until.Sub(cpuClock()) {
		time.Sleep(time.Duration(float64(left) / math.Float64frombits(g.share.Load())))
	}
}

// track follows the share of a CPU, averaged over about 100 ms, every
// 10 ms until stop is closed.
func (g *rig) track(stop chan struct{}) {
	share, c0, w0 := math.Float64frombits(g.share.Load()), processCPU(), time.Now()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			c := processCPU()
			dt := now.Sub(w0).Seconds() // ticks come late while the process waits for a CPU
			share += (1 - math.Exp(-dt/0.1)) * (min(1, max(0.02, (c-c0).Seconds()/dt)) - share)
			c0, w0 = c, now
			g.share.Store(math.Float64bits(share))
		}
	}
}

// soak spends the CPU no request wants, in chunks of 20 us between
// yields to every other goroutine, adding up its own CPU time.
func soak(stop chan struct{}, own *atomic.Int64) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		runtime.LockOSThread()
		c := threadCPU()
		_, _ = spend(20*time.Microsecond, func() ([]byte, error) { return nil, nil })
		own.Add(int64(threadCPU() - c))
		runtime.UnlockOSThread()
		runtime.Gosched()
	}
}

// measured is one window: the fit's view and the accelerator's counters.
type measured struct {
	softratio.Window
	c Counters
}

// window measures n signatures (after 30 to warm up) under cfg at soft
// ratio r: requests per CPU-second, CPU per request and the busy fraction
// (both without the soak's).
func (g *rig) window(cfg plans.Accel, r, n int) measured {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer func(now func() time.Time, sleep func(time.Time)) { clockNow, clockSleep = now, sleep }(clockNow, clockSleep)
	clockNow, clockSleep = cpuClock, g.sleep
	a, err := New(cfg, func(k string) string { return map[string]string{RatioEnv: strconv.Itoa(r)}[k] })
	if err != nil {
		g.t.Fatal(err)
	}
	var done atomic.Uint64
	var idle atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { g.track(stop) })
	wg.Go(func() { soak(stop, &idle) })
	digest := sha256.Sum256([]byte("transcript"))
	for range 16 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = spend(sweepBase, func() ([]byte, error) { return nil, nil })
				if _, err := a.Sign(g.key, rand.Reader, digest[:], crypto.SHA256); err != nil {
					panic(err)
				}
				done.Add(1)
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	decided := func() uint64 { c := a.Counters(); return c.Soft + c.Offloaded }
	snap := func(k uint64) (uint64, Counters, time.Duration, time.Duration) {
		for decided() < k {
			time.Sleep(5 * time.Millisecond)
		}
		return done.Load(), a.Counters(), processCPU(), time.Duration(idle.Load())
	}
	// The second snapshot counts n decisions from the first's, not from
	// 30: the test goroutine waits its turn among 18 on one P, and both
	// thresholds may have passed by the time it runs.
	n0, c0, all0, idle0 := snap(30)
	n1, c1, all1, idle1 := snap(c0.Soft + c0.Offloaded + uint64(n))
	reqs, v, cpu := float64(n1-n0), (all1 - all0).Seconds(), (all1 - all0 - idle1 + idle0).Seconds()
	busy := cpu / v
	return measured{
		Window: softratio.Window{Ratio: float64(r) / 100, Rate: reqs / v, CPUPerRequest: cpu / reqs, Busy: busy, CPUs: 1, Saturated: busy > 0.8},
		c:      Counters{Soft: c1.Soft - c0.Soft, Offloaded: c1.Offloaded - c0.Offloaded, Retries: c1.Retries - c0.Retries},
	}
}

// searched is what a search over the soft ratio in steps of 5 found.
type searched struct {
	predicted, best int     // soft ratios, percent
	peak            float64 // req/s at best
	ends            [2]measured
	visits          string // "ratio:req/s" in the order measured
}

// search runs a search started from the prediction from both ends, with
// budget windows of n signatures.
func (g *rig) search(cfg plans.Accel, budget, n int) searched {
	var s searched
	scfg := search.Config{Points: 21, Budget: budget, Predict: func(search.Window, search.Window) (int, bool) {
		p := softratio.Predict(softratio.Input{Windows: []softratio.Window{s.ends[0].Window, s.ends[1].Window},
			Capacity: cfg.Capacity}) // a device-bound window's D comes first
		s.predicted = int(math.Round(100 * p.Ratio.Value))
		return int(math.Round(p.Ratio.Value * 20)), p.Status == softratio.OK
	}}
	var done []search.Window
	for step := search.Next(scfg, done); !step.Done; step = search.Next(scfg, done) {
		w := g.window(cfg, 5*step.Point, n)
		switch {
		case step.Point == 0 && s.ends[0].Rate == 0:
			s.ends[0] = w
		case step.Point == 20 && s.ends[1].Rate == 0:
			s.ends[1] = w
		}
		done = append(done, search.Window{Point: step.Point, Score: w.Rate})
		s.visits += fmt.Sprintf(" %d:%.0f", 5*step.Point, w.Rate)
	}
	ans := search.Analyze(scfg, done)
	s.best, s.peak = 5*ans.Best, ans.Stats.Mean
	return s
}

// paramSets vary capacity, soft-cpu and offload-cpu. Measured here, their
// r* are near 47, 58 and 33: between two of the search's steps of 5, so
// that noise between the two does not decide (560/s rather than the
// default 600/s, whose r* of 45 is one step from 50 and from 40).
var paramSets = []string{"capacity=560/s", "capacity=300/s,soft-cpu=1.75ms,offload-cpu=100us", "capacity=1000/s,soft-cpu=1ms,offload-cpu=20us"}

// TestSearchFindsPredicted is must-show 2 of issue 40: r* and T* from the
// parameters (capacity) and the a, b and β measured at the ends; a
// search of 8 windows started from the prediction finds the best ratio
// within 5 of r*, the prediction from the ends is within 5, and the peak
// within 10 % of T*. One parameter set; all three with KAELOAD_LONG=1.
// Must-show 4 on the first: policy overflow with its default threshold
// reaches the searched peak within the same 10 %.
func TestSearchFindsPredicted(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of 8 windows")
	}
	sets := paramSets[:1]
	if os.Getenv("KAELOAD_LONG") != "" {
		sets = paramSets
	}
	g := newRig(t)
	for i, spec := range sets {
		cfg, err := Parse(spec, Defaults())
		if err != nil {
			t.Fatal(err)
		}
		s := g.search(cfg, 8, 300)
		m := softratio.Model{A: s.ends[1].CPUPerRequest, B: s.ends[0].CPUPerRequest, Beta: s.ends[1].Busy, CPUs: 1, Capacity: cfg.Capacity}
		r, rate := m.Best()
		line := fmt.Sprintf("%s: a %.3f ms, b %.3f ms, β %.2f (ends %.0f, %.0f req/s): r* %.0f, T* %.0f; predicted %d, searched %d at %.0f req/s (%s)",
			spec, 1e3*m.A, 1e3*m.B, m.Beta, s.ends[0].Rate, s.ends[1].Rate, 100*r, rate, s.predicted, s.best, s.peak, s.visits)
		if math.Abs(float64(s.best)-100*r) > 5 || math.Abs(float64(s.predicted)-100*r) > 5 || math.Abs(s.peak/rate-1) > 0.1 {
			t.Error(line)
		} else {
			t.Log(line)
		}
		if i > 0 {
			continue
		}
		cfg.Policy = "overflow"
		w := []measured{g.window(cfg, 0, 300), g.window(cfg, 0, 300)}
		line = fmt.Sprintf("overflow, threshold %d: %.0f and %.0f req/s (%.0f %% offloaded), best static %.0f", Threshold(cfg), w[0].Rate, w[1].Rate,
			100*float64(w[0].c.Offloaded+w[1].c.Offloaded)/float64(w[0].c.Soft+w[0].c.Offloaded+w[1].c.Soft+w[1].c.Offloaded), s.peak)
		if (w[0].Rate+w[1].Rate)/2 < 0.9*s.peak {
			t.Error(line)
		} else {
			t.Log(line)
		}
	}
}

// TestSyncWaitIsCPU is must-show 3 of issue 40: in mode sync the device's
// wait is the server's CPU, so at r = 0 the CPU per request rises over
// async's by about the latency (more where the device queues). With
// KAELOAD_LONG=1, a search in mode sync: offload then costs more CPU than
// software (b > a), so the prediction and the search keep all in software.
func TestSyncWaitIsCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("windows of 100 signatures")
	}
	g := newRig(t)
	cfg, err := Parse(paramSets[0], Defaults()) // as TestSearchFindsPredicted's first
	if err != nil {
		t.Fatal(err)
	}
	sync := cfg
	sync.Mode = "sync"
	as, s := g.window(cfg, 0, 100), g.window(sync, 0, 100)
	rise := s.CPUPerRequest - as.CPUPerRequest
	line := fmt.Sprintf("CPU per request at r = 0: async %.3f ms, sync %.3f ms (+%.3f ms, latency %v)", 1e3*as.CPUPerRequest, 1e3*s.CPUPerRequest, 1e3*rise, cfg.Latency)
	if lat := cfg.Latency.Seconds(); rise < 0.8*lat || rise > 2.5*lat {
		t.Error(line)
	} else {
		t.Log(line)
	}
	if os.Getenv("KAELOAD_LONG") == "" {
		return
	}
	ss := g.search(sync, 8, 300)
	line = fmt.Sprintf("sync: a %.3f ms, b %.3f ms; predicted %d, searched %d at %.0f req/s (%s)",
		1e3*ss.ends[1].CPUPerRequest, 1e3*ss.ends[0].CPUPerRequest, ss.predicted, ss.best, ss.peak, ss.visits)
	if ss.predicted != 100 || ss.best < 95 {
		t.Error(line)
	} else {
		t.Log(line)
	}
}
