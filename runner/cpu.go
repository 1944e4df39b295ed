package runner

import (
	"context"
	"net"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// meterOf measures something over a window: calling it takes the first
// sample, and the func it returns the next, measuring from the last one
// (successive calls measure successive intervals).
type meterOf[T any] func() (finish func(window time.Duration) (T, error), err error)

// meter measures CPU use over a window.
type meter = meterOf[*results.CPUUsage]

// sampledMeter measures from a sample taken at both ends of each interval
// and the reading between two samples.
func sampledMeter[S, T any](sample func() (S, error), reading func(a, b S, w time.Duration) T) meterOf[T] {
	return func() (func(time.Duration) (T, error), error) {
		a, err := sample()
		if err != nil {
			return nil, err
		}
		return readingsFrom(a, sample, reading), nil
	}
}

// readingsFrom is a meter's finish after its first sample a: each call
// samples anew and returns the reading since the last sample.
func readingsFrom[S, T any](a S, sample func() (S, error), reading func(a, b S, w time.Duration) T) func(time.Duration) (T, error) {
	return func(w time.Duration) (T, error) {
		b, err := sample()
		if err != nil {
			var zero T
			return zero, err
		}
		r := reading(a, b, w)
		a = b // the next call measures from here
		return r, nil
	}
}

// deltaMeter measures CPU use from one sample to the next.
func deltaMeter[S interface {
	Usage(S, time.Duration) results.CPUUsage
}](sample func() (S, error)) meter {
	return sampledMeter(sample, func(a, b S, w time.Duration) *results.CPUUsage { return new(a.Usage(b, w)) })
}

// cpusMeter measures a pinned group's CPUs, whoever uses them: busy CPUs
// cannot drive more load.
func cpusMeter(cpus pinning.Set) meter {
	return deltaMeter(func() (cpustat.Sample, error) { return cpustat.SampleCPUs(cpus) })
}

// selfMeter measures this process alone, busy relative to cpus (or the
// CPUs it may use when cpus is empty).
func selfMeter(cpus pinning.Set) meter {
	seconds := func() (float64, error) {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0, err
		}
		tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
		return tv(ru.Utime) + tv(ru.Stime), nil
	}
	return sampledMeter(seconds, func(a, b float64, w time.Duration) *results.CPUUsage {
		on := orOnline(cpus) // the timeline's and the window's meters run side by side: never write cpus
		return busyOver(&results.CPUUsage{CPUs: on.String(), Seconds: max(b-a, 0)}, w, len(on))
	})
}

// waitMeter measures how long this process's threads waited for a CPU
// (cpustat.RunDelay), Busy relative to cpus (the online CPUs when empty).
func waitMeter(cpus pinning.Set) meter {
	pid := os.Getpid()
	return sampledMeter(func() (time.Duration, error) { return cpustat.RunDelay(pid) },
		func(a, b, w time.Duration) *results.CPUUsage {
			return busyOver(&results.CPUUsage{Seconds: max(b-a, 0).Seconds()}, w, len(orOnline(cpus)))
		})
}

// orOnline is cpus, or the online CPUs when it is empty.
func orOnline(cpus pinning.Set) pinning.Set {
	if len(cpus) == 0 {
		cpus, _ = pinning.Online()
	}
	return cpus
}

// busyOver sets u.Busy to its seconds as a share of n CPUs over w.
func busyOver(u *results.CPUUsage, w time.Duration, n int) *results.CPUUsage {
	if w > 0 && n > 0 {
		u.Busy = min(u.Seconds/(w.Seconds()*float64(n)), 1)
	}
	return u
}

// othersMeter names the processes that used the most CPU among those that
// may run on cpus, other than this one and exclude.
func othersMeter(cpus pinning.Set, exclude []int) meterOf[[]results.ProcessCPU] {
	exclude = append(slices.Clone(exclude), os.Getpid())
	return sampledMeter(cpustat.SampleProcs, func(a, b cpustat.ProcsSample, _ time.Duration) []results.ProcessCPU {
		return a.Top(b, cpus, exclude, results.OthersListed)
	})
}

// measureWindow samples m when win starts and ends (or early closes) and
// delivers the reading between the samples; zero when ctx ends or a sample
// fails.
func measureWindow[T any](ctx context.Context, m meterOf[T], win results.Window, early <-chan struct{}, logf func(string, ...any)) <-chan T {
	out := make(chan T, 1)
	if m == nil {
		var zero T
		out <- zero
		return out
	}
	go func() {
		var u T
		defer func() { out <- u }()
		if !sleepUntilOr(ctx, win.Start, early) {
			return
		}
		select {
		case <-early: // stopped in the warm-up: no window to measure
			return
		default:
		}
		// From the start of one read to the start of the other: a slow read (ssh)
		// takes as long at both ends.
		first := time.Now()
		finish, err := m()
		if err != nil {
			logf("CPU not measured: %v", err)
			return
		}
		if !sleepUntilOr(ctx, win.End, early) {
			return
		}
		if u, err = finish(time.Since(first)); err != nil {
			logf("CPU not measured: %v", err)
		}
	}()
	return out
}

// sleepUntilOr is sleepUntil that also wakes, true, when early closes.
func sleepUntilOr(ctx context.Context, t time.Time, early <-chan struct{}) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-early:
		return true
	case <-timer.C:
		return true
	}
}

// sleepUntil waits until t; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool { return sleepUntilOr(ctx, t, nil) }

// isLocal reports whether ip is an address of this machine.
func isLocal(ip net.IP) bool {
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}
