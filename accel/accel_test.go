package accel

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

// TestDeviceQueue: one engine at 1,000/s (1 ms each), latency 2 ms, two
// may wait: the fourth operation at once is a RETRY, and one more is
// taken once an engine has started the next.
func TestDeviceQueue(t *testing.T) {
	d := newDevice(1, 2, time.Millisecond, 2*time.Millisecond)
	for i, want := range []time.Duration{2 * time.Millisecond, 3 * time.Millisecond, 4 * time.Millisecond} {
		ready, ok := d.submit(at(0))
		if !ok || !ready.Equal(at(want)) {
			t.Fatalf("op %d: got ready %v ok %v, want %v true", i, ready.Sub(t0), ok, want)
		}
	}
	if _, ok := d.submit(at(0)); ok {
		t.Fatal("a fourth operation with two waiting was accepted, want RETRY")
	}
	ready, ok := d.submit(at(time.Millisecond)) // the second has started
	if got, want := ready.Sub(t0), 5*time.Millisecond; !ok || got != want {
		t.Fatalf("after a start: got ready %v ok %v, want %v true", got, ok, want)
	}
	if got, want := d.busyTime(), 4*time.Millisecond; got != want {
		t.Errorf("busy %v, want %v", got, want)
	}
	if _, ok := newDevice(1, 0, time.Millisecond, 0).submit(at(0)); !ok {
		t.Error("queue 0: an idle engine refused an operation")
	}
}

// TestDeviceCapacity: offered twice its capacity for a second, with a deep
// queue, the device returns capacity results in that second, whatever
// its engines.
func TestDeviceCapacity(t *testing.T) {
	for _, engines := range []int{1, 4} {
		c := plans.Accel{Capacity: 600, Engines: engines, Latency: 2 * time.Millisecond}
		d := newDevice(engines, 1<<20, Service(c), c.Latency)
		done := 0
		for i := range 1200 {
			ready, ok := d.submit(at(time.Duration(i) * time.Second / 1200))
			if !ok {
				t.Fatalf("engines %d: RETRY with a deep queue", engines)
			}
			if ready.Before(at(time.Second)) {
				done++
			}
		}
		if done < 595 || done > 600 {
			t.Errorf("engines %d: %d results within 1 s, want 595 to 600", engines, done)
		}
	}
}

// TestRatioSplit: policy ratio keeps exactly r of every 100 consecutive
// signatures in software, and r·n/100 within one in any stretch of n.
func TestRatioSplit(t *testing.T) {
	for _, r := range []int{0, 1, 33, 50, 56, 99, 100} {
		a := newTest(t, plans.Accel{}, map[string]string{RatioEnv: strconv.Itoa(r)})
		soft := make([]int, 1001) // soft[i]: software among the first i
		for i := range 1000 {
			soft[i+1] = soft[i]
			if !a.reserve(t0) {
				soft[i+1]++
			}
		}
		for _, n := range []int{7, 100, 333} {
			for i := 0; i+n <= 1000; i++ {
				got, want := soft[i+n]-soft[i], float64(r*n)/100
				if float64(got) < want-1 || float64(got) > want+1 || (n == 100 && got != r) {
					t.Fatalf("ratio %d: %d of the %d from %d in software, want %.2f", r, got, n, i, want)
				}
			}
		}
	}
}

// TestOverflow: policy overflow offloads while fewer than the threshold
// are in the device, until their results are ready.
func TestOverflow(t *testing.T) {
	a := newTest(t, plans.Accel{Policy: "overflow", Threshold: 3}, nil)
	for i, want := range []bool{true, true, true, false} {
		if got := a.reserve(at(0)); got != want {
			t.Fatalf("reserve %d: got %v, want %v", i, got, want)
		}
		if want {
			a.dev.submit(at(0)) // ready at 2 ms, 3.67 ms and 5.33 ms
		}
	}
	if !a.reserve(at(2 * time.Millisecond)) {
		t.Error("a result ready but the next signature stayed in software")
	}
	if got, want := Threshold(Defaults()), 3; got != want { // ceil(600/s × 2 ms) + 1 engine
		t.Errorf("default threshold %d, want %d", got, want)
	}
}

// TestSign: every path's signature verifies; software costs soft-cpu of
// the thread's CPU (the real signature included); a full queue's RETRY
// falls back to software; the counters say so.
func TestSign(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("transcript"))
	sign := func(a *Accel) time.Duration {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		sig, err := Signer(key, func() *Accel { return a }).Sign(rand.Reader, digest[:], crypto.SHA256)
		if err != nil || !ecdsa.VerifyASN1(&key.PublicKey, digest[:], sig) {
			t.Fatalf("signature does not verify (err %v)", err)
		}
		return threadCPU() - c0
	}
	cfg := plans.Accel{SoftCPU: 3 * time.Millisecond, OffloadCPU: 0, Capacity: 1, Latency: time.Millisecond, Queue: 0}
	soft := newTest(t, cfg, map[string]string{RatioEnv: "100"})
	if got := sign(soft); got < cfg.SoftCPU {
		t.Errorf("software path used %v of CPU, want at least %v", got, cfg.SoftCPU)
	}
	a := newTest(t, cfg, nil)
	a.dev.submit(time.Now()) // the one engine is busy for 1 s: RETRY
	sign(a)
	if got, want := a.Counters(), (Counters{Soft: 1, Retries: 1, Busy: time.Second}); got != want {
		t.Errorf("after a RETRY: counters %+v, want %+v", got, want)
	}
	if got, want := a.Counters().Text(), "accel_soft 1\naccel_offload 0\naccel_retry 1\naccel_busy_ms 1000\n"; got != want {
		t.Errorf("Text:\n%s\nwant\n%s", got, want)
	}
	sign(newTest(t, cfg, map[string]string{SpecEnv: "capacity=1000/s"})) // offloaded
	if sign(soft) < cfg.SoftCPU || soft.Counters().Soft != 2 {
		t.Errorf("counters %+v after two software signatures", soft.Counters())
	}
}

// TestSyncBurns: mode sync polls through the device's latency, async
// sleeps; only sync's wait shows as the thread's CPU. The bound is a tenth
// of the latency, so a busy machine does not decide.
func TestSyncBurns(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	digest := sha256.Sum256(nil)
	cpu := func(mode string) time.Duration {
		a := newTest(t, plans.Accel{Mode: mode, Capacity: 1000, Latency: 20 * time.Millisecond}, nil)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := threadCPU()
		if _, err := a.Sign(key, rand.Reader, digest[:], crypto.SHA256); err != nil {
			t.Fatal(err)
		}
		if a.Counters().Offloaded != 1 {
			t.Fatalf("%s: not offloaded: %+v", mode, a.Counters())
		}
		return threadCPU() - c0
	}
	if s, as := cpu("sync"), cpu("async"); s < 2*time.Millisecond || as >= 2*time.Millisecond {
		t.Errorf("CPU over a 20 ms device wait: sync %v (want 2 ms or more), async %v (want less)", s, as)
	}
}

// TestParse: specs read back; errors name the key.
func TestParse(t *testing.T) {
	c, err := Parse("capacity=600/s,latency=2ms,soft-cpu=1.25ms,offload-cpu=30us,engines=2,queue=8,mode=sync,policy=overflow", Defaults())
	if err != nil {
		t.Fatal(err)
	}
	want := plans.Accel{Capacity: 600, Latency: 2 * time.Millisecond, SoftCPU: 1250 * time.Microsecond, OffloadCPU: 30 * time.Microsecond,
		Engines: 2, Queue: 8, Mode: "sync", Policy: "overflow"}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	back, err := Parse(String(c), plans.Accel{})
	if want.Threshold = Threshold(c); err != nil || back != want {
		t.Errorf("String %q reads back as %+v (%v)", String(c), back, err)
	}
	for spec, wantErr := range map[string]string{
		"capacity=fast":   `accel: capacity="fast": want operations per second above 0`,
		"latency=2":       `accel: latency="2": want a duration`,
		"engines=0":       `accel: engines="0": want a whole number, 1 or more`,
		"mode=poll":       `accel: mode="poll": want async or sync`,
		"speed=1":         `accel: unknown key "speed"`,
		"capacity":        `accel: "capacity": want key=value`,
		"policy=overflow": "",
	} {
		_, err := Parse(spec, Defaults())
		if (err == nil) != (wantErr == "") || err != nil && !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Parse(%q): got %v, want %q", spec, err, wantErr)
		}
	}
	for env, wantErr := range map[string]string{RatioEnv: "KAE_GO_SOFT_RATIO=\"101\"", SpecEnv: "KAELOAD_ACCEL: accel: queue"} {
		val := map[string]string{RatioEnv: "101", SpecEnv: "queue=-1"}[env]
		if _, err := New(Defaults(), func(k string) string { return map[string]string{env: val}[k] }); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s=%s: got %v, want %q", env, val, err, wantErr)
		}
	}
}

// newTest is New over cfg's set fields on Defaults, with env.
func newTest(t *testing.T, cfg plans.Accel, env map[string]string) *Accel {
	t.Helper()
	c := Defaults()
	if cfg.Capacity > 0 {
		c.Capacity, c.Latency, c.SoftCPU, c.OffloadCPU, c.Queue = cfg.Capacity, cfg.Latency, cfg.SoftCPU, cfg.OffloadCPU, cfg.Queue
	}
	if cfg.Mode != "" {
		c.Mode = cfg.Mode
	}
	if cfg.Policy != "" {
		c.Policy, c.Threshold = cfg.Policy, cfg.Threshold
	}
	a, err := New(c, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return a
}
