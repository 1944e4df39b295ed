package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// serverSample is one reading of the server's CPUs: its process tree, the
// busy time of the CPUs it may use and every process's time.
type serverSample struct {
	tree  cpustat.TreeSample
	busy  cpustat.Sample
	procs cpustat.ProcsSample
}

// serverSampler reads the server's CPUs, on this machine or over ssh.
type serverSampler interface {
	// sample reads the CPUs cpus, or when nil the CPUs the tree may use,
	// and returns the CPUs it read.
	sample(ctx context.Context, cpus pinning.Set) (serverSample, pinning.Set, error)
	// others are the busiest other processes that may run on cpus.
	others(ctx context.Context, a, b serverSample, cpus pinning.Set) ([]results.ProcessCPU, error)
}

// serverCPUsMeter measures the CPUs the server may run on: busy time, the
// controller's own time (self, when not nil) and the busiest others. rec
// gives the fields the reading does not (Builtin, Host).
func serverCPUsMeter(s serverSampler, self meter, rec results.ServerCPUs) meterOf[*results.ServerCPUs] {
	return func() (func(time.Duration) (*results.ServerCPUs, error), error) {
		ctx := context.Background() // each read over ssh is bounded (hostConn.read)
		a, cpus, err := s.sample(ctx, nil)
		if err != nil {
			return nil, err
		}
		var ownFinish func(time.Duration) (*results.CPUUsage, error)
		if self != nil {
			if ownFinish, err = self(); err != nil {
				return nil, err
			}
		}
		return func(w time.Duration) (*results.ServerCPUs, error) {
			b, _, err := s.sample(ctx, cpus)
			if err != nil {
				return nil, err
			}
			out := rec
			if ownFinish != nil {
				own, err := ownFinish(w)
				if err != nil {
					return nil, err
				}
				out.Controller = own.Seconds
			}
			if out.Others, err = s.others(ctx, a, b, cpus); err != nil {
				return nil, err
			}
			busy := a.busy.Usage(b.busy, w)
			out.CPUs, out.PIDs, out.Busy = cpus.String(), b.tree.PIDs, &busy
			if !out.Builtin { // the built-in target is kaeload itself: no name
				out.Name = b.tree.Comm
			}
			return &out, nil
		}, nil
	}
}

// localSampler reads the server rooted at pid from this machine's /proc;
// workers are this machine's workers, never counted as others.
type localSampler struct {
	pid     int
	workers []int
}

func (l localSampler) sample(_ context.Context, cpus pinning.Set) (serverSample, pinning.Set, error) {
	tree, errT := cpustat.SampleTree(l.pid)
	if cpus == nil {
		cpus = tree.CPUs
	}
	busy, errC := cpustat.SampleCPUs(cpus)
	procs, errP := cpustat.SampleProcs()
	return serverSample{tree, busy, procs}, cpus, errors.Join(errT, errC, errP)
}

func (l localSampler) others(_ context.Context, a, b serverSample, cpus pinning.Set) ([]results.ProcessCPU, error) {
	// Not others: the server's tree at both ends, the workers and this process.
	skip := union(a.tree.PIDs, b.tree.PIDs, l.workers, []int{os.Getpid()})
	return a.procs.Top(b.procs, cpus, skip, results.OthersListed), nil
}

// remoteSampler reads the server rooted at root on the ssh host hc, its
// /proc and the affinities there. The host's workers are not told apart by
// PID (their time counts as theirs, Group.Process).
type remoteSampler struct {
	hc   *hostConn
	root int
}

func (r remoteSampler) sample(ctx context.Context, cpus pinning.Set) (serverSample, pinning.Set, error) {
	stat, procs, err := readRemoteProcs(ctx, r.hc)
	if err != nil {
		return serverSample{}, nil, err
	}
	host := stat.CPUs()
	tree, err := procs.Tree(r.root, host)
	if err != nil {
		return serverSample{}, nil, err
	}
	if cpus == nil {
		masks, err := r.allowed(ctx, tree.PIDs)
		if err != nil {
			return serverSample{}, nil, err
		}
		for _, m := range masks {
			cpus = union(cpus, m)
		}
		if len(cpus) == 0 {
			cpus = host // every member gone: the host's CPUs
		}
	}
	busy, err := stat.Select(cpus)
	return serverSample{tree, busy, procs.Procs()}, cpus, err
}

func (r remoteSampler) others(ctx context.Context, a, b serverSample, cpus pinning.Set) ([]results.ProcessCPU, error) {
	exclude := slices.Concat(a.tree.PIDs, b.tree.PIDs)
	masks, err := r.allowed(ctx, a.procs.Used(b.procs, exclude))
	if err != nil {
		return nil, err
	}
	return a.procs.TopAllowed(b.procs, cpus, exclude, results.OthersListed, masks), nil
}

// allowed reads the CPU affinity of pids on the host.
func (r remoteSampler) allowed(ctx context.Context, pids []int) (map[int]pinning.Set, error) {
	if len(pids) == 0 {
		return nil, nil
	}
	out, err := r.hc.read(ctx, "read CPU affinity", cpustat.AllowedScript(pids))
	if err != nil {
		return nil, err
	}
	return cpustat.ParseAllowed(out), nil
}

// localWorkers are the PIDs of ws's workers that run on this machine.
func localWorkers(ws *workers) []int {
	var pids []int
	for _, p := range ws.procs {
		if p.host == nil {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// serverCPUsOf picks how the server's CPUs are watched: the built-in target's
// without the workers (or a small machine's quick start reads NOT SATURATED),
// over ssh, or here; nil when the server was not found.
func (c *controller) serverCPUsOf(ws *workers) meterOf[*results.ServerCPUs] {
	if c.builtin {
		return serverCPUsMeter(localSampler{os.Getpid(), localWorkers(ws)}, nil, results.ServerCPUs{Builtin: true})
	}
	if c.serverPID <= 0 {
		return nil
	}
	if hc := c.serverHost(); hc != nil {
		return serverCPUsMeter(remoteSampler{hc, c.serverPID}, nil, results.ServerCPUs{Host: hc.name})
	}
	return serverCPUsMeter(localSampler{c.serverPID, localWorkers(ws)}, selfMeter(nil), results.ServerCPUs{})
}

// union returns the members of sets, ascending, each once.
func union[S ~[]int](sets ...S) S {
	out := slices.Concat(sets...)
	slices.Sort(out)
	return slices.Compact(out)
}
