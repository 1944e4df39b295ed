package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/remote"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/serverprof"
)

// sshProfHost runs serverprof's script on the server's ssh host.
type sshProfHost struct{ hc *hostConn }

// Name is the host's name.
func (h sshProfHost) Name() string { return h.hc.name }

// Script runs script with sh -c there.
func (h sshProfHost) Script(ctx context.Context, script string) *exec.Cmd {
	return h.hc.conn.Command(ctx, remote.Shell(nil, script))
}

// profileHost is where the server runs, for serverprof, and its processes
// there; without them, why not.
func (c *controller) profileHost(ctx context.Context) (serverprof.Host, []int, string) {
	hc := c.serverHost()
	host, nowhere := serverprof.Host(serverprof.Local()), "no process of this machine listens on "+c.plan.Target.Addr
	if hc != nil {
		host, nowhere = sshProfHost{hc}, "nothing listens on the target's port on "+hc.name
	}
	switch {
	case c.builtin:
		return host, []int{os.Getpid()}, ""
	case c.serverPID <= 0:
		return host, nil, "server PIDs not found: " + nowhere
	}
	var tree cpustat.TreeSample
	out, err := "", error(nil)
	if hc == nil {
		tree, err = cpustat.SampleTree(c.serverPID)
	} else if out, err = hc.read(ctx, "read /proc", "cat /proc/[0-9]*/stat 2>/dev/null; true"); err == nil {
		tree, err = cpustat.ParseRemoteProcs(out).Tree(c.serverPID, nil)
	}
	if err != nil {
		return host, nil, fmt.Sprintf("server PIDs not found: %v", err)
	}
	return host, tree.PIDs, ""
}

// startProfile attaches perf to the server before the window is set; the
// func it returns delivers the window's profile (or why none) once it
// ended (a nil channel when the plan does not profile).
func (c *controller) startProfile(ctx context.Context, label string, window time.Duration) func(results.Window) <-chan *results.ServerProfile {
	if c.plan.Profile == nil {
		return func(results.Window) <-chan *results.ServerProfile { return nil }
	}
	host, pids, why := c.profileHost(ctx)
	logf := logTo(c.opts.Log, label+": server profile ")
	var sess *serverprof.Session
	none := serverprof.Unavailable(host.Name(), nil, why)
	if why == "" {
		sess, none = serverprof.Start(ctx, host, pids, window)
	}
	if none != nil {
		logf("not available: %s", none.Reason)
	} else {
		logf("perf attached to %d processes on %s", len(pids), host.Name())
	}
	return func(win results.Window) <-chan *results.ServerProfile {
		out := make(chan *results.ServerProfile, 1)
		if sess == nil {
			out <- none
			return out
		}
		go func() {
			p := serverprof.Unavailable(host.Name(), pids, "the window did not complete")
			defer func() { out <- p }()
			defer sess.Close()
			if ctx.Err() != nil || !sleepUntil(ctx, win.Start) {
				return
			}
			if err := sess.Enable(ctx); err != nil {
				p = serverprof.Unavailable(host.Name(), pids, err.Error())
			} else if sleepUntil(ctx, win.End) {
				p = sess.Stop(ctx)
			} else {
				return
			}
			if p.Available() {
				logf("%d samples over %.2f s", p.Samples, p.Seconds)
			} else {
				logf("not available: %s", p.Reason)
			}
		}()
		return out
	}
}
