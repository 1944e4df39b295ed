package runner

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
)

// listening fails the run at once when nothing listens on a target the
// plan does not control: every slot would spend the window on errors.
func (c *controller) listening(ctx context.Context) error {
	if c.builtin || !slices.ContainsFunc(c.plan.Load.Groups, localGroup) {
		return nil
	}
	if err := server.Listening(ctx, c.plan.Target.Addr, listenTries, listenWithin); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("target %w; no load was sent (start the server, or check target.url)", err)
	}
	return nil
}

// findServer picks how the server's CPU is measured for a session (this
// process for the built-in target, else the tree on the target's port).
func (c *controller) findServer(v plans.Variant) error {
	c.server, c.serverPID = nil, 0
	if c.builtin {
		c.server = selfMeter(nil)
		return nil
	}
	if hc := c.serverHost(); hc != nil {
		m, how, pid := remoteServerMeter(hc, c.plan.Target.Addr)
		fmt.Fprintf(c.opts.Log, "variant %s: server CPU: %s\n", v.Name, how)
		c.server, c.serverPID = m, pid
		return nil
	}
	// Here, the process serving the target's address, when it is on this machine.
	host, portStr, err := net.SplitHostPort(c.plan.Target.Addr)
	if err != nil {
		return err
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return fmt.Errorf("port %q: %w", portStr, err)
	}
	if !isLocal(net.ParseIP(host)) {
		return fmt.Errorf("%s is not an address of this machine (server CPU over ssh is not supported yet)", host)
	}
	pid, err := cpustat.FindListener(port)
	if err != nil {
		return err
	}
	c.server, c.serverPID = deltaMeter(func() (cpustat.TreeSample, error) { return cpustat.SampleTree(pid) }), pid
	return nil
}

// serverUp prepares the server for v: stop (a failure only logged), then
// stopped (the speed commands), start or reload, and wait until ready.
func (c *controller) serverUp(ctx context.Context, ctl *server.Control, v plans.Variant, stopped func() error) error {
	log := c.opts.Log
	timeout := commandTimeout(c.plan)
	r := c.plan.Server.Ready
	ready := server.Ready{Kind: r.Kind, Addr: r.Addr, URL: r.URL, Interval: r.Interval, Timeout: r.Timeout, Tally: new(server.Tally)}
	c.readiness = (*results.Readiness)(ready.Tally)
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
		before, err := c.portFree(ctx, timeout)
		if err != nil {
			return startFailure(ctx, v, err)
		}
		began = time.Now()
		fmt.Fprintf(log, "variant %s: starting the server\n", v.Name)
		if err := ctl.Start(ctx, v.Start, ready); err != nil {
			return startFailure(ctx, v, err)
		}
		if err := c.portOwned(before); err != nil {
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
func (c *controller) serverDown(ctl *server.Control, v plans.Variant, startFailed bool) error {
	if v.Start == "" {
		return nil // kaeload did not start it: leave it running
	}
	timeout := commandTimeout(c.plan)
	ctx, cancel := context.WithTimeout(context.Background(), timeout+teardownSlack)
	defer cancel()
	fmt.Fprintf(c.opts.Log, "variant %s: stopping the server\n", v.Name)
	err := ctl.Stop(ctx, v.Stop, timeout)
	if err == nil {
		return nil
	}
	if startFailed {
		fmt.Fprintf(c.opts.Log, "variant %s: stop after the failed start: %v\n", v.Name, err)
		return nil
	}
	return fmt.Errorf("variant %s: %w", v.Name, err)
}

// serverHost is the ssh host the server runs on; nil when it runs here.
func (c *controller) serverHost() *hostConn {
	if s := c.plan.Server; s != nil && s.SSH != nil {
		return c.hosts[s.SSH.Name]
	}
	return nil
}

// localPort is the target's port when kaeload starts the server here, or 0.
func (c *controller) localPort() int {
	if c.builtin || c.plan.Server == nil || c.plan.Server.SSH != nil {
		return 0
	}
	_, port, err := net.SplitHostPort(c.plan.Target.Addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(port)
	return n
}

// portFree waits, at most timeout, until no server kaeload started still
// holds the target's port (a stopped one may drain); it returns who holds it.
func (c *controller) portFree(ctx context.Context, timeout time.Duration) ([]cpustat.Holder, error) {
	port := c.localPort()
	if port == 0 {
		return nil, nil
	}
	deadline := time.Now().Add(timeout)
	for {
		hs, err := cpustat.PortHolders(port)
		if err != nil || !slices.ContainsFunc(hs, func(h cpustat.Holder) bool { return c.started[h.PID] }) {
			return hs, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("port %d is still held by %s, which its stop command did not stop", port, holdersText(hs))
		}
		if !sleepUntil(ctx, time.Now().Add(50*time.Millisecond)) {
			return nil, ctx.Err()
		}
	}
}

// portOwned checks who listens on the target's port once the server is
// ready: a family from before the start (portFree's) beside one it brought
// shares the port (SO_REUSEPORT) and the load, and is an error naming it.
func (c *controller) portOwned(before []cpustat.Holder) error {
	port := c.localPort()
	if port == 0 {
		return nil
	}
	hs, err := cpustat.PortHolders(port)
	if err != nil {
		return nil
	}
	var old, started []cpustat.Holder
	for _, h := range hs {
		if slices.ContainsFunc(before, func(b cpustat.Holder) bool { return b.PID == h.PID }) {
			old = append(old, h)
		} else {
			started = append(started, h)
		}
	}
	if len(old) > 0 && len(started) > 0 {
		return fmt.Errorf("port %d is also held by %s, which kaeload did not start", port, holdersText(old))
	}
	if c.started == nil {
		c.started = map[int]bool{}
	}
	for _, h := range started {
		c.started[h.PID] = true
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
