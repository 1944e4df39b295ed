package runner

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
)

// serverSide is the server a run measures: how it is started, checked and
// stopped, and how its CPU is found. The controller embeds it.
type serverSide struct {
	plan    *plans.Plan
	log     io.Writer
	builtin bool                 // the server is the built-in target in this process
	hosts   map[string]*hostConn // the plan's ssh hosts, connected for the run
	server  meter                // the server's CPU; nil when it cannot be measured
	// serverPID is the server's process on its host; 0 when not found.
	serverPID int
	// started are the process families found on the target's port after a
	// start (portOwned); before, those there before the last start (portFree).
	started map[int]bool
	before  []cpustat.Holder
	// readiness is the last start's readiness probes, for the next window.
	readiness *results.Readiness
}

// listening fails the run at once when nothing listens on a target the
// plan does not control: every slot would spend the window on errors.
func (sv *serverSide) listening(ctx context.Context) error {
	if sv.builtin || !slices.ContainsFunc(sv.plan.Load.Groups, localGroup) {
		return nil
	}
	if err := server.Listening(ctx, sv.plan.Target.Addr, listenTries, listenWithin); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("target %w; no load was sent (start the server, or check target.url)", err)
	}
	return nil
}

// findServer picks how the server's CPU is measured for a session (this
// process for the built-in target, else the tree on the target's port).
func (sv *serverSide) findServer(v plans.Variant) error {
	sv.serverPID = 0
	if sv.builtin {
		sv.server = selfMeter(nil)
		return nil
	}
	if hc := sv.serverHost(); hc != nil {
		m, how, pid := remoteServerMeter(hc, sv.plan.Target.Addr)
		fmt.Fprintf(sv.log, "variant %s: server CPU: %s\n", v.Name, how)
		sv.server, sv.serverPID = m, pid
		return nil
	}
	m, pid, err := localServer(sv.plan.Target.Addr)
	sv.server, sv.serverPID = m, pid
	return err
}

// serverUp prepares the server for v: stop (a failure only logged), then
// stopped (the speed commands), start or reload, and wait until ready.
func (sv *serverSide) serverUp(ctx context.Context, ctl *server.Control, v plans.Variant, stopped func() error) error {
	log := sv.log
	timeout := commandTimeout(sv.plan)
	r := sv.plan.Server.Ready
	ready := server.Ready{Kind: r.Kind, Addr: r.Addr, URL: r.URL, Interval: r.Interval, Timeout: r.Timeout, Tally: new(server.Tally)}
	sv.readiness = (*results.Readiness)(ready.Tally)
	if v.Start != "" && v.Stop != "" {
		fmt.Fprintf(log, "variant %s: running the stop command first, to clear whatever runs\n", v.Name)
		if err := ctl.Stop(ctx, v.Stop, timeout); err != nil {
			fmt.Fprintf(log, "variant %s: stop before start failed (ignored): %v\n", v.Name, err)
		}
	}
	if err := stopped(); err != nil {
		return err
	}
	began := time.Now()
	switch {
	case v.Start != "":
		if err := sv.portFree(ctx, timeout); err != nil {
			return startFailure(ctx, v, err)
		}
		began = time.Now()
		fmt.Fprintf(log, "variant %s: starting the server\n", v.Name)
		if err := ctl.Start(ctx, v.Start, ready); err != nil {
			return startFailure(ctx, v, err)
		}
		if err := sv.portOwned(); err != nil {
			return startFailure(ctx, v, err)
		}
	case v.Reload != "":
		fmt.Fprintf(log, "variant %s: reloading the server\n", v.Name)
		if _, err := ctl.Run(ctx, "reload", v.Reload, timeout); err != nil {
			return startFailure(ctx, v, err)
		}
		fallthrough
	default:
		if err := server.WaitReady(ctx, ready, nil); err != nil {
			return startFailure(ctx, v, fmt.Errorf("server: %w", err))
		}
	}
	fmt.Fprintf(log, "variant %s: server ready after %s\n", v.Name, time.Since(began).Round(time.Millisecond))
	return nil
}

// serverDown stops the server started for v, also after an interrupt;
// after a failed start its failure is only logged.
func (sv *serverSide) serverDown(ctl *server.Control, v plans.Variant, startFailed bool) error {
	if v.Start == "" {
		return nil // kaeload did not start it: leave it running
	}
	timeout := commandTimeout(sv.plan)
	ctx, cancel := context.WithTimeout(context.Background(), timeout+teardownSlack)
	defer cancel()
	fmt.Fprintf(sv.log, "variant %s: stopping the server\n", v.Name)
	err := ctl.Stop(ctx, v.Stop, timeout)
	if err == nil {
		return nil
	}
	if startFailed {
		fmt.Fprintf(sv.log, "variant %s: stop after the failed start: %v\n", v.Name, err)
		return nil
	}
	return fmt.Errorf("variant %s: %w", v.Name, err)
}

// serverHost is the ssh host the server runs on; nil when it runs here.
func (sv *serverSide) serverHost() *hostConn {
	if s := sv.plan.Server; s != nil && s.SSH != nil {
		return sv.hosts[s.SSH.Name]
	}
	return nil
}

// serverRemote is server.Control.Remote for the plan's ssh server.
func (sv *serverSide) serverRemote() func(ctx context.Context, env map[string]string, command string) *exec.Cmd {
	if hc := sv.serverHost(); hc != nil {
		return shellOn(hc.conn)
	}
	return nil
}

// localPort is the target's port when kaeload starts the server here; 0
// otherwise.
func (sv *serverSide) localPort() int {
	if sv.builtin || sv.plan.Server == nil || sv.plan.Server.SSH != nil {
		return 0
	}
	_, port, err := net.SplitHostPort(sv.plan.Target.Addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(port)
	return n
}

// portFree waits, at most timeout, until no server kaeload started still
// holds the target's port (a stopped one may drain).
func (sv *serverSide) portFree(ctx context.Context, timeout time.Duration) error {
	port := sv.localPort()
	if port == 0 {
		return nil
	}
	deadline := time.Now().Add(timeout)
	for {
		hs, err := cpustat.PortHolders(port)
		if err != nil || !slices.ContainsFunc(hs, func(h cpustat.Holder) bool { return sv.started[h.PID] }) {
			sv.before = hs
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("port %d is still held by %s, which its stop command did not stop", port, holdersText(hs))
		}
		if !sleepUntil(ctx, time.Now().Add(50*time.Millisecond)) {
			return ctx.Err()
		}
	}
}

// portOwned checks who listens on the target's port once the server is
// ready: a family from before the start beside one it brought shares the
// port (SO_REUSEPORT) and the load, and is an error naming it.
func (sv *serverSide) portOwned() error {
	port := sv.localPort()
	if port == 0 {
		return nil
	}
	hs, err := cpustat.PortHolders(port)
	if err != nil {
		return nil
	}
	var old, started []cpustat.Holder
	for _, h := range hs {
		if slices.ContainsFunc(sv.before, func(b cpustat.Holder) bool { return b.PID == h.PID }) {
			old = append(old, h)
		} else {
			started = append(started, h)
		}
	}
	if len(old) > 0 && len(started) > 0 {
		return fmt.Errorf("port %d is also held by %s, which kaeload did not start", port, holdersText(old))
	}
	if sv.started == nil {
		sv.started = map[int]bool{}
	}
	for _, h := range started {
		sv.started[h.PID] = true
	}
	return nil
}

// holdersText names process families: "haproxy (pid 30337)".
func holdersText(hs []cpustat.Holder) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, " and ")
}
