package accel

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sweepBase is the rest of a handshake's server CPU in the sweep: key
// exchange, record layer, HTTP (a Go server's, about this on one CPU).
const sweepBase = 250 * time.Microsecond

// TestSweepOptimum is must-show 1 of issue 40: a grid sweep of the soft
// ratio, the documented defaults on one server CPU (GOMAXPROCS 1, 16
// handshakes in flight), has its highest rate at an interior ratio, and
// in every window offloaded / all = 1 − r within 1 %.
//
// The optimum is a property of the device's capacity against the CPU's.
// A busy machine that gives the process a share β of its CPU lowers the
// CPU-bound ratios' rates, not the device-bound ones': the model keeps an
// interior optimum 10 % above both ends of this grid down to β ≈ 0.4
// (measured here under a load average of 7). Each ratio keeps its best of
// two interleaved rounds, compared within this run; windows are sized by
// signatures, not time.
func TestSweepOptimum(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep of 13 windows")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ratios := []int{0, 20, 40, 60, 80, 100}
	best := make([]float64, len(ratios))
	for range 2 {
		for i, r := range ratios {
			w := sweepWindow(t, key, r)
			all := float64(w.c.Soft + w.c.Offloaded)
			if got, want := float64(w.c.Offloaded)/all, 1-float64(r)/100; w.c.Retries != 0 || math.Abs(got-want) > 0.01 {
				t.Errorf("ratio %d: offloaded/all %.4f of %.0f (%d RETRY), want %.2f within 0.01", r, got, all, w.c.Retries, want)
			}
			best[i] = max(best[i], w.rate)
		}
	}
	top := 0
	for i := range best {
		if best[i] > best[top] {
			top = i
		}
	}
	line := fmt.Sprintf("%v → %.0f req/s", ratios, best)
	ends := max(best[0], best[len(best)-1])
	if top == 0 || top == len(best)-1 || best[top] < 1.1*ends {
		t.Errorf("no interior optimum 10 %% above both ends: %s", line)
	}
	t.Log(line)
}

// window is what sweepWindow measured.
type window struct {
	rate float64  // requests completed per second
	c    Counters // the accelerator's counters' change
}

// sweepWindow runs requests of sweepBase CPU and one signature, 16 at a
// time, through the defaults at soft ratio r, and measures from the 30th
// signature to the 330th.
func sweepWindow(t *testing.T, key crypto.Signer, r int) window {
	a, err := New(Defaults(), func(k string) string { return map[string]string{RatioEnv: strconv.Itoa(r)}[k] })
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Uint64
	var stop atomic.Bool
	var wg sync.WaitGroup
	digest := sha256.Sum256([]byte("transcript"))
	for range 16 {
		wg.Go(func() {
			for !stop.Load() {
				_, _ = spend(sweepBase, func() ([]byte, error) { return nil, nil })
				if _, err := a.Sign(key, rand.Reader, digest[:], crypto.SHA256); err != nil {
					panic(err)
				}
				done.Add(1)
			}
		})
	}
	defer func() { stop.Store(true); wg.Wait() }()
	decided := func() uint64 { c := a.Counters(); return c.Soft + c.Offloaded }
	snap := func(n uint64) (uint64, Counters, time.Time) {
		for decided() < n {
			time.Sleep(5 * time.Millisecond)
		}
		return done.Load(), a.Counters(), time.Now()
	}
	n0, c0, t0 := snap(30)
	n1, c1, t1 := snap(330)
	d := Counters{Soft: c1.Soft - c0.Soft, Offloaded: c1.Offloaded - c0.Offloaded, Retries: c1.Retries - c0.Retries, Busy: c1.Busy - c0.Busy}
	return window{rate: float64(n1-n0) / t1.Sub(t0).Seconds(), c: d}
}
