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

// serverCPUsMeter measures the CPUs the local server rooted at pid may run
// on: busy time, the controller's own time and the busiest others. With
// builtin, pid is this process and its time is the server's.
func serverCPUsMeter(pid int, workers []int, builtin bool) meterOf[*results.ServerCPUs] {
	var self meter // the controller's own time, but the built-in target's is the server's
	if !builtin {
		self = selfMeter(nil)
	}
	return func() (func(time.Duration) (*results.ServerCPUs, error), error) {
		tree, errT := cpustat.SampleTree(pid)
		cpus := tree.CPUs
		busyA, errC := cpustat.SampleCPUs(cpus)
		procsA, errP := cpustat.SampleProcs()
		if err := errors.Join(errT, errC, errP); err != nil {
			return nil, err
		}
		var ownFinish func(time.Duration) (*results.CPUUsage, error)
		if self != nil {
			var err error
			if ownFinish, err = self(); err != nil {
				return nil, err
			}
		}
		return func(w time.Duration) (*results.ServerCPUs, error) {
			end, errT := cpustat.SampleTree(pid)
			busyB, errC := cpustat.SampleCPUs(cpus)
			procsB, errP := cpustat.SampleProcs()
			if err := errors.Join(errT, errC, errP); err != nil {
				return nil, err
			}
			var controller float64
			if ownFinish != nil {
				own, err := ownFinish(w)
				if err != nil {
					return nil, err
				}
				controller = own.Seconds
			}
			busy := busyA.Usage(busyB, w)
			name := end.Comm
			if builtin {
				name = "" // kaeload itself
			}
			return &results.ServerCPUs{
				CPUs:       cpus.String(),
				Builtin:    builtin,
				Name:       name,
				PIDs:       end.PIDs,
				Busy:       &busy,
				Controller: controller,
				Others:     procsA.Top(procsB, cpus, notOthers(tree.PIDs, end.PIDs, workers), results.OthersListed),
			}, nil
		}, nil
	}
}

// notOthers are the processes the busiest others leave out: the server's
// tree at both ends, the workers and this process.
func notOthers(treeA, treeB, workers []int) []int {
	out := slices.Concat(treeA, treeB, workers, []int{os.Getpid()})
	slices.Sort(out)
	return slices.Compact(out)
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

// serverCPUsOf picks how the server's CPUs are watched: the controller's
// for the built-in target (workers excluded, or a small machine's quick
// start reads NOT SATURATED), over ssh on the server's host, or here; nil
// when the server was not found.
func (c *controller) serverCPUsOf(ws *workers) meterOf[*results.ServerCPUs] {
	if c.builtin {
		return serverCPUsMeter(os.Getpid(), localWorkers(ws), true)
	}
	if c.serverPID <= 0 {
		return nil
	}
	if s := c.plan.Server; s != nil && s.SSH != nil {
		return remoteServerCPUsMeter(c.hosts[s.SSH.Name], c.serverPID)
	}
	return serverCPUsMeter(c.serverPID, localWorkers(ws), false)
}

// remoteServerCPUsMeter is serverCPUsMeter for a server on the ssh host hc,
// reading /proc and the affinities there. The host's workers are not told
// apart by PID (their time counts as theirs, Group.Process).
func remoteServerCPUsMeter(hc *hostConn, root int) meterOf[*results.ServerCPUs] {
	if hc == nil {
		return nil
	}
	allowed := func(ctx context.Context, pids []int) (map[int]pinning.Set, error) {
		if len(pids) == 0 {
			return nil, nil
		}
		out, err := hc.conn.Output(ctx, "read CPU affinity", cpustat.AllowedScript(pids), nil)
		if err != nil {
			return nil, err
		}
		return cpustat.ParseAllowed(string(out)), nil
	}
	return func() (func(time.Duration) (*results.ServerCPUs, error), error) {
		ctx, cancel := context.WithTimeout(context.Background(), clockTimeout)
		defer cancel()
		statA, procsA, err := readRemoteProcs(ctx, hc)
		if err != nil {
			return nil, err
		}
		host := statA.CPUs()
		tree, err := procsA.Tree(root, host)
		if err != nil {
			return nil, err
		}
		masks, err := allowed(ctx, tree.PIDs)
		if err != nil {
			return nil, err
		}
		var cpus pinning.Set
		for _, m := range masks {
			cpus = union(cpus, m)
		}
		if len(cpus) == 0 {
			cpus = host // every member gone: the host's CPUs
		}
		busyA, err := statA.Select(cpus)
		if err != nil {
			return nil, err
		}
		return func(w time.Duration) (*results.ServerCPUs, error) {
			ctx, cancel := context.WithTimeout(context.Background(), clockTimeout)
			defer cancel()
			statB, procsB, err := readRemoteProcs(ctx, hc)
			if err != nil {
				return nil, err
			}
			end, err := procsB.Tree(root, host)
			if err != nil {
				return nil, err
			}
			busyB, err := statB.Select(cpus)
			if err != nil {
				return nil, err
			}
			a, b := procsA.Procs(), procsB.Procs()
			exclude := slices.Concat(tree.PIDs, end.PIDs)
			masks, err := allowed(ctx, a.Used(b, exclude))
			if err != nil {
				return nil, err
			}
			busy := busyA.Usage(busyB, w)
			return &results.ServerCPUs{
				CPUs:   cpus.String(),
				Host:   hc.name,
				Name:   end.Comm,
				PIDs:   end.PIDs,
				Busy:   &busy,
				Others: a.TopAllowed(b, cpus, exclude, results.OthersListed, masks),
			}, nil
		}, nil
	}
}

// union returns the CPUs in a or b, ascending.
func union(a, b pinning.Set) pinning.Set {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
