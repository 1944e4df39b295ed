package accel

import (
	"crypto"
	"crypto/sha256"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// Environment variables an Accel reads, as a server with KAE reads them.
const (
	RatioEnv = "KAE_GO_SOFT_RATIO" // percent kept in software under policy ratio (default 0)
	SpecEnv  = "KAELOAD_ACCEL"     // "off" (all in software, as without KAE) or a spec over the config
)

// clockNow and clockSleep are the device's clock, which tests replace by the
// process's CPU time: a busy machine then keeps the device's ratio to it.
var (
	clockNow   = time.Now
	clockSleep = func(until time.Time) { time.Sleep(time.Until(until)) }
)

// Accel sends every signature to software or the device and spends what
// that costs: the real signature, a spin to the path's CPU, the device's wait.
type Accel struct {
	cfg     plans.Accel
	off     bool
	ratio   uint64 // percent kept in software
	limit   int    // Threshold(cfg)
	dev     *device
	seq     atomic.Uint64
	soft    atomic.Uint64
	offload atomic.Uint64
	retry   atomic.Uint64
}

// New is the accelerator cfg describes under getenv's SpecEnv and RatioEnv.
func New(cfg plans.Accel, getenv func(string) string) (*Accel, error) {
	a := &Accel{}
	var err error
	if spec := strings.TrimSpace(getenv(SpecEnv)); spec == "off" {
		a.off = true
	} else if cfg, err = Parse(spec, cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", SpecEnv, err)
	}
	if err := Check(cfg); err != nil {
		return nil, err
	}
	if s := strings.TrimSpace(getenv(RatioEnv)); s != "" {
		r, err := strconv.ParseUint(s, 10, 8)
		if err != nil || r > 100 {
			return nil, fmt.Errorf("accel: %s=%q: want a whole percent from 0 to 100", RatioEnv, s)
		}
		a.ratio = r
	}
	a.cfg, a.limit = cfg, Threshold(cfg)
	a.dev = newDevice(cfg.Engines, cfg.Queue, Service(cfg), cfg.Latency)
	return a, nil
}

// String says what a runs, for logs.
func (a *Accel) String() string {
	if a.off {
		return "off (every signature in software, soft-cpu " + a.cfg.SoftCPU.String() + ")"
	}
	return fmt.Sprintf("%s, %s=%d", String(a.cfg), RatioEnv, a.ratio)
}

// Sign signs digest with key along the path a picks (RETRY: software).
func (a *Accel) Sign(key crypto.Signer, rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	sign := func() ([]byte, error) { return key.Sign(rand, digest, opts) }
	now := clockNow()
	if !a.reserve(now) {
		return spend(a.cfg.SoftCPU, sign)
	}
	ready, ok := a.dev.submit(now)
	if !ok {
		a.offload.Add(^uint64(0)) // -1: counted at the decision
		a.retry.Add(1)
		a.soft.Add(1)
		return spend(a.cfg.SoftCPU, sign)
	}
	sig, err := spend(a.cfg.OffloadCPU, sign)
	a.wait(ready)
	return sig, err
}

// reserve says whether the signature asked for at now goes to the
// device, and counts it at once: a goroutine held up later (on the
// device's lock, preempted) must not move it out of the window it was
// decided in. Policy ratio keeps exactly ratio of every 100 consecutive
// signatures in software, spread evenly; overflow offloads while fewer
// than the threshold are in the device (as QAT counts them: until their
// result is ready, not until the thread that waits for it runs again).
func (a *Accel) reserve(now time.Time) bool {
	off := false
	switch {
	case a.off:
	case a.cfg.Policy == "overflow":
		off = a.dev.inFlight(now) < a.limit
	default:
		n := a.seq.Add(1) - 1
		off = (n+1)*a.ratio/100 == n*a.ratio/100
	}
	if off {
		a.offload.Add(1)
	} else {
		a.soft.Add(1)
	}
	return off
}

// wait returns once ready: asleep in mode async, polling (burning CPU) in sync.
func (a *Accel) wait(ready time.Time) {
	if a.cfg.Mode == "sync" {
		poll(ready)
		return
	}
	clockSleep(ready)
}

//go:noinline
func poll(ready time.Time) {
	for clockNow().Before(ready) {
	}
}

// Counters are an Accel's counts since New.
type Counters struct {
	Soft      uint64        // signatures done in software (RETRYs' included)
	Offloaded uint64        // signatures the device accepted
	Retries   uint64        // RETRY answers of a full queue
	Busy      time.Duration // the engines' busy time summed
}

// Counters returns a's counters.
func (a *Accel) Counters() Counters {
	return Counters{Soft: a.soft.Load(), Offloaded: a.offload.Load(), Retries: a.retry.Load(), Busy: a.dev.busyTime()}
}

// ProbeNames name the counters as probes (Value), in order.
var ProbeNames = []string{"accel_soft", "accel_offload", "accel_retry", "accel_busy_ms"}

// Value is the counter a probe name (ProbeNames) reads; 0 for another name.
func (c Counters) Value(name string) float64 {
	values := []float64{float64(c.Soft), float64(c.Offloaded), float64(c.Retries), float64(c.Busy) / float64(time.Millisecond)}
	if i := slices.Index(ProbeNames, name); i >= 0 {
		return values[i]
	}
	return 0
}

// Text writes the counters one "name value" per line.
func (c Counters) Text() string {
	var b strings.Builder
	for _, n := range ProbeNames {
		fmt.Fprintf(&b, "%s %s\n", n, strconv.FormatFloat(c.Value(n), 'f', -1, 64))
	}
	return b.String()
}

// Signer wraps key so that its signatures go through current()'s Accel.
func Signer(key crypto.Signer, current func() *Accel) crypto.Signer {
	return signer{key, current}
}

type signer struct {
	crypto.Signer
	current func() *Accel
}

func (s signer) Sign(rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	if a := s.current(); a != nil {
		return a.Sign(s.Signer, rand, digest, opts)
	}
	return s.Signer.Sign(rand, digest, opts)
}

// spend runs f, then spins until the thread has used cost of CPU in all.
// The spin hashes with SHA-256, so a profile counts it as crypto.
func spend(cost time.Duration, f func() ([]byte, error)) ([]byte, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPU()
	sig, err := f()
	per := hashCost()
	for {
		left := cost - (threadCPU() - t0)
		if left <= 0 {
			return sig, err
		}
		Burn(int(left/(2*per)) + 1)
	}
}

// hashCost is the thread CPU one hash takes here, measured once.
var hashCost = sync.OnceValue(func() time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 2000
	t0 := threadCPU()
	Burn(n)
	return max((threadCPU()-t0)/n, 10*time.Nanosecond)
})

var hashSink atomic.Uint32

// Burn chains n SHA-256 hashes of a 64-byte block: CPU work, kept alive.
func Burn(n int) {
	var sum [sha256.Size]byte
	var block [64]byte
	for range n {
		copy(block[:], sum[:])
		sum = sha256.Sum256(block[:])
	}
	hashSink.Add(uint32(sum[0]))
}
