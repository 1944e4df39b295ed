package runner

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// meter measures CPU use over a window: calling it takes the first
// sample; the function it returns takes the second and computes the usage.
type meter func() (finish func(window time.Duration) (*results.CPUUsage, error), err error)

// cpusMeter measures the CPUs of a pinned group, whoever uses them: a
// group's CPUs that are busy with anything (a server pinned beside it
// included) cannot drive more load.
func cpusMeter(cpus pinning.Set) meter {
	return func() (func(time.Duration) (*results.CPUUsage, error), error) {
		a, err := cpustat.SampleCPUs(cpus)
		if err != nil {
			return nil, err
		}
		return func(w time.Duration) (*results.CPUUsage, error) {
			b, err := cpustat.SampleCPUs(cpus)
			if err != nil {
				return nil, err
			}
			u := a.Usage(b, w)
			return &u, nil
		}, nil
	}
}

// treeMeter measures a process and its descendants (a local server).
func treeMeter(pid int) meter {
	return func() (func(time.Duration) (*results.CPUUsage, error), error) {
		a, err := cpustat.SampleTree(pid)
		if err != nil {
			return nil, err
		}
		return func(w time.Duration) (*results.CPUUsage, error) {
			b, err := cpustat.SampleTree(pid)
			if err != nil {
				return nil, err
			}
			u := a.Usage(b, w)
			return &u, nil
		}, nil
	}
}

// selfMeter measures this process alone, not its children: an unpinned
// worker, or the controller serving the built-in target (whose children
// are the workers). Busy is relative to the CPUs the process may use.
func selfMeter() meter {
	seconds := func() (float64, error) {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0, err
		}
		tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
		return tv(ru.Utime) + tv(ru.Stime), nil
	}
	return func() (func(time.Duration) (*results.CPUUsage, error), error) {
		a, err := seconds()
		if err != nil {
			return nil, err
		}
		return func(w time.Duration) (*results.CPUUsage, error) {
			b, err := seconds()
			if err != nil {
				return nil, err
			}
			cpus, _ := pinning.Online()
			u := &results.CPUUsage{CPUs: cpus.String(), Seconds: max(b-a, 0)}
			if w > 0 && len(cpus) > 0 {
				u.Busy = min(u.Seconds/(w.Seconds()*float64(len(cpus))), 1)
			}
			return u, nil
		}, nil
	}
}

// measureWindow samples m when win starts and when it ends, beside the
// load. It delivers nil on the channel when ctx ends first or a sample
// fails (the failure goes to logf).
func measureWindow(ctx context.Context, m meter, win results.Window, logf func(string, ...any)) <-chan *results.CPUUsage {
	out := make(chan *results.CPUUsage, 1)
	if m == nil {
		out <- nil
		return out
	}
	go func() {
		var u *results.CPUUsage
		defer func() { out <- u }()
		if !sleepUntil(ctx, win.Start) {
			return
		}
		finish, err := m()
		if err != nil {
			logf("CPU not measured: %v", err)
			return
		}
		if !sleepUntil(ctx, win.End) {
			return
		}
		if u, err = finish(win.Length()); err != nil {
			logf("CPU not measured: %v", err)
		}
	}()
	return out
}

func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// localServer finds the process serving addr when it is on this machine
// (a loopback or local interface address) and returns a meter for its
// process tree. It returns why not otherwise.
func localServer(addr string) (meter, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("port %q: %w", portStr, err)
	}
	if !isLocal(net.ParseIP(host)) {
		return nil, fmt.Errorf("%s is not an address of this machine (server CPU over ssh is not supported yet)", host)
	}
	pid, err := cpustat.FindListener(port)
	if err != nil {
		return nil, err
	}
	return treeMeter(pid), nil
}

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
