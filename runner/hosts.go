package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/remote"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
)

const (
	clockRounds     = 5                // timestamp exchanges per remote worker; the shortest sets the offset
	clockTimeout    = 5 * time.Second  // bounds one exchange, and any read over ssh
	remoteSilence   = 3 * silenceLimit // a remote worker silent this long during the load hangs
	sshdMaxSessions = 10               // sshd's default MaxSessions per connection
	maxDials        = 32               // ssh connections opened at once
)

// hostConn is an ssh host of the plan: its master connection, the
// kaeload binary installed there (for worker groups) and its clock.
type hostConn struct {
	name   string
	conn   *remote.Host
	info   results.RemoteHost // what the run records about the host
	exe    string             // the remote path of kaeload; "" when no group runs there
	warned bool               // the uncertain clock was warned about
}

// roles says what a host does in the plan: "groups 1, 2", "the server".
func roles(p *plans.Plan, name string) string {
	var parts []string
	if groups := groupsOn(p, name); len(groups) == 1 {
		parts = append(parts, "group "+groups[0])
	} else if len(groups) > 1 {
		parts = append(parts, "groups "+strings.Join(groups, ", "))
	}
	if s := p.Server; s != nil && s.SSH != nil && s.SSH.Name == name {
		parts = append(parts, "the server")
	}
	return strings.Join(parts, " and ")
}

// groupsOn are the indexes of p's groups that run on the ssh host name.
func groupsOn(p *plans.Plan, name string) []string {
	var groups []string
	for i, g := range p.Load.Groups {
		if g.Host != nil && g.Host.Name == name {
			groups = append(groups, fmt.Sprint(i))
		}
	}
	return groups
}

// localGroup reports whether g runs on this machine.
func localGroup(g plans.Group) bool { return g.Host == nil }

// dialHosts opens one master connection per ssh host and installs kaeload
// where a group runs; on failure it closes them and names each host that
// failed, once.
func dialHosts(ctx context.Context, p *plans.Plan, opts Options) (map[string]*hostConn, error) {
	begin, n := time.Now(), fmt.Sprintf("%d hosts", len(p.Hosts))
	if len(p.Hosts) == 1 {
		n = "1 host"
	}
	fmt.Fprintf(opts.Log, "connecting to %s over ssh\n", n)
	// Every host at once (at most maxDials): readiness then takes one
	// host's time, and unreachable hosts one connect timeout in all. The
	// first failure cancels the dials still going.
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	log := &syncWriter{w: opts.Log}
	conns, errs := make([]*hostConn, len(p.Hosts)), make([]error, len(p.Hosts))
	sem := make(chan struct{}, maxDials)
	var wg sync.WaitGroup
	for i, h := range p.Hosts {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if errs[i] = dctx.Err(); errs[i] == nil {
				conns[i], errs[i] = dialHost(dctx, p, h, log, opts.Executable)
			}
			if errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	hosts := make(map[string]*hostConn, len(p.Hosts))
	var failed []error
	for i, hc := range conns {
		if hc != nil {
			hosts[hc.name] = hc
		}
		// The failures, not the dials they cancelled; an interrupt is said once.
		if err := errs[i]; err != nil && !errors.Is(err, context.Canceled) {
			who := fmt.Sprintf("%s (%s)", p.Hosts[i].Name, roles(p, p.Hosts[i].Name))
			if re := (*remote.Error)(nil); errors.As(err, &re) {
				who = roles(p, p.Hosts[i].Name) // err names the host
			}
			failed = append(failed, fmt.Errorf("%s: %w", who, err))
		}
	}
	if err := errors.Join(failed...); err != nil || ctx.Err() != nil {
		closeHosts(hosts)
		return nil, cmp.Or(err, ctx.Err())
	}
	fmt.Fprintf(opts.Log, "%s ready over ssh in %.2f s\n", n, time.Since(begin).Seconds())
	return hosts, nil
}

// dialHost connects to h, reads its facts and, when a group runs there,
// installs kaeload; on failure it closes what it opened.
func dialHost(ctx context.Context, p *plans.Plan, h plans.SSHHost, log io.Writer, executable string) (*hostConn, error) {
	conn, err := dialSSH(ctx, p, h, log)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*hostConn, error) {
		conn.Close()
		return nil, err
	}
	facts := conn.Facts
	hc := &hostConn{name: h.Name, conn: conn, info: results.RemoteHost{Name: h.Name, Roles: roles(p, h.Name),
		Facts: &results.RemoteFacts{Kernel: facts.Kernel, CPUs: facts.CPUs, CPUModel: facts.CPUModel}}}
	groups := len(groupsOn(p, h.Name))
	if groups == 0 {
		return hc, nil
	}
	if groups+2 > sshdMaxSessions {
		fmt.Fprintf(log, "host %s: %d groups: unless its sshd allows %d sessions per connection (MaxSessions, default %d), ssh opens a connection of its own for each session beyond\n", h.Name, groups, groups+2, sshdMaxSessions)
	}
	plat, err := remote.ParseUname(facts.Uname)
	if err != nil {
		return fail(err)
	}
	hc.info.Platform = plat
	bin, err := pickBinary(plat, p.Binaries, executable)
	if err != nil {
		return fail(err)
	}
	path, hash, uploaded, err := conn.Install(ctx, bin, facts)
	if err != nil {
		return fail(err)
	}
	hc.exe, hc.info.Binary, hc.info.Uploaded = path, hash, uploaded
	if uploaded {
		fmt.Fprintf(log, "host %s: kaeload %s sha256 %s uploaded to %s\n", h.Name, plat, hash[:16], path)
	}
	return hc, nil
}

// dialSSH opens the master connection to the plan's host h, with the
// plan's ssh options; log gets the master's messages.
func dialSSH(ctx context.Context, p *plans.Plan, h plans.SSHHost, log io.Writer) (*remote.Host, error) {
	opt := make([][2]string, 0, len(p.SSHOptions))
	for _, o := range p.SSHOptions {
		opt = append(opt, [2]string{o.Key, o.Value})
	}
	return remote.Dial(ctx, remote.Config{Name: h.Name, User: h.User, Host: h.Host, Port: h.Port, Options: opt, Log: log})
}

// shellOn is server.Control.Remote for commands run through conn.
func shellOn(conn *remote.Host) func(ctx context.Context, env map[string]string, command string) *exec.Cmd {
	return func(ctx context.Context, env map[string]string, command string) *exec.Cmd {
		return conn.Command(ctx, remote.Shell(env, command))
	}
}

// closeHosts ends every master connection, all at once.
func closeHosts(hosts map[string]*hostConn) {
	var wg sync.WaitGroup
	for _, h := range hosts {
		wg.Go(h.conn.Close)
	}
	wg.Wait()
}

// read runs command on the host, bounded by clockTimeout, and returns its
// output; what says what it reads, for errors.
func (hc *hostConn) read(ctx context.Context, what, command string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, clockTimeout)
	defer cancel()
	out, err := hc.conn.Output(ctx, what, command, nil)
	return string(out), err
}

// remoteStatMeter measures the whole of a remote host's CPUs from its
// /proc/stat, read over the host's ssh connection.
func remoteStatMeter(hc *hostConn) meter {
	return deltaMeter(func() (cpustat.Sample, error) {
		out, err := hc.read(context.Background(), "read /proc/stat", "cat /proc/stat")
		if err != nil {
			return cpustat.Sample{}, err
		}
		return cpustat.ParseProcStat(out)
	})
}

// syncClocks measures each remote worker's round trip and clock offset
// (Cristian's method: the shortest exchange, offset = remote time − its
// midpoint, ± half its round trip), kept per worker and per host.
func (ws *workers) syncClocks(ctx context.Context, window time.Duration, warn func(results.Warning)) error {
	for _, p := range ws.procs {
		if p.host == nil {
			continue
		}
		best := time.Duration(-1)
		var offset, slowest time.Duration
		for range clockRounds {
			t0 := time.Now()
			if err := p.send(wire.Clock{Type: wire.TypeClock}); err != nil {
				return err
			}
			var e event
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(clockTimeout):
				return p.fail(fmt.Errorf("no %q answer within %s", wire.TypeClock, clockTimeout))
			case e = <-ws.events:
			}
			rtt := time.Since(t0)
			if err := eventErr(e); err != nil {
				return err
			}
			if e.w != p || e.msg.Type != wire.TypeClock { // any other event is a failure
				return e.w.fail(fmt.Errorf("protocol: unexpected %q message before start", e.msg.Type))
			}
			var cm wire.Clock
			if err := p.decode(e.msg, &cm); err != nil {
				return err
			}
			slowest = max(slowest, rtt)
			if best < 0 || rtt < best {
				best = rtt
				offset = cm.Time.Sub(t0.Add(rtt / 2))
			}
		}
		p.offset, p.rtt, p.slowest = offset, best, slowest
		info := &p.host.info
		info.RTT, info.ClockOffset = best, offset
		info.Uncertain = best/2 > window/100
		fmt.Fprintf(ws.chatter, "host %s: worker %d round trip %s, clock offset %s ± %s\n", p.host.name, p.index, best, offset, best/2)
		if info.Uncertain && !p.host.warned {
			p.host.warned = true
			warn(notes.New(notes.ClockUncertain, "host", p.host.name, "uncertainty", best/2, "window", window).Warning())
		}
	}
	return nil
}

// procSep separates /proc/stat from the process stat lines in one read.
const procSep = "@@kaeload-procs@@"

// readRemoteProcs reads, in one command over hc, the host's /proc/stat
// and every process's /proc/PID/stat.
func readRemoteProcs(ctx context.Context, hc *hostConn) (cpustat.Sample, cpustat.RemoteProcs, error) {
	out, err := hc.read(ctx, "read /proc", "cat /proc/stat; echo "+procSep+"; cat /proc/[0-9]*/stat 2>/dev/null; true")
	if err != nil {
		return cpustat.Sample{}, cpustat.RemoteProcs{}, err
	}
	stat, procs, _ := strings.Cut(out, procSep)
	s, err := cpustat.ParseProcStat(stat)
	return s, cpustat.ParseRemoteProcs(procs), err
}

// remoteServerMeter measures the server on its ssh host: the tree listening
// on the target's port (found anew each session), else the whole machine.
// It says which, and returns the tree's root PID (0: the machine).
func remoteServerMeter(hc *hostConn, addr string) (meter, string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	whole := fmt.Sprintf("the whole of %s from its /proc/stat", hc.name)
	_, portStr, err := net.SplitHostPort(addr)
	port, perr := strconv.Atoi(portStr)
	if err != nil || perr != nil {
		return remoteStatMeter(hc), whole, 0
	}
	// The PIDs of the processes with a socket listening on port (any
	// address), from /proc/net/tcp{,6} and /proc/*/fd.
	script := fmt.Sprintf(`h=$(printf ':%%04X' %d); for i in $(awk -v h="$h" 'NR>1 && $4=="0A" && substr($2, length($2)-4)==h {print $10}' /proc/net/tcp /proc/net/tcp6 2>/dev/null); do find /proc/[0-9]*/fd -maxdepth 1 -lname "socket:\[$i\]" 2>/dev/null; done | cut -d/ -f3 | sort -un`, port)
	out, err := hc.conn.Output(ctx, "find the server's process", script, nil)
	if err != nil {
		return remoteStatMeter(hc), whole + fmt.Sprintf(" (the listener of port %d was not found: %v)", port, err), 0
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return remoteStatMeter(hc), whole + fmt.Sprintf(" (nothing listens on port %d there: the server is elsewhere)", port), 0
	}
	pid, _ := strconv.Atoi(fields[0])
	_, procs, err := readRemoteProcs(ctx, hc)
	if err != nil {
		return remoteStatMeter(hc), whole, 0
	}
	root := procs.FamilyRoot(pid)
	sample := func() (cpustat.TreeSample, error) {
		s, procs, err := readRemoteProcs(context.Background(), hc)
		if err != nil {
			return cpustat.TreeSample{}, err
		}
		return procs.Tree(root, s.CPUs())
	}
	return deltaMeter(sample), fmt.Sprintf("the process tree of %s pid %d on %s (listening on port %d), from /proc over ssh", procs.Comm(root), root, hc.name, port), root
}

// pickBinary chooses the kaeload binary for a host of platform plat: the
// plan's Binaries entry for it, else this build (exe) when it is built for
// plat. Otherwise the error says how to build one.
func pickBinary(plat string, binaries map[string]string, exe string) (string, error) {
	goos, goarch, _ := strings.Cut(plat, "/")
	bin := binaries[plat]
	if bin == "" {
		if plat != runtime.GOOS+"/"+runtime.GOARCH {
			return "", fmt.Errorf("the host is %s but this kaeload is built for %s/%s: build one for it with GOOS=%s GOARCH=%s go build -o kaeload-%s-%s ./cmd/kaeload and add binaries: {%s: ./kaeload-%s-%s} to the scenario",
				plat, runtime.GOOS, runtime.GOARCH, goos, goarch, goos, goarch, plat, goos, goarch)
		}
		return exe, nil
	}
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("the host is %s and binaries gives %s for it: %w (build it with GOOS=%s GOARCH=%s go build -o %s ./cmd/kaeload)", plat, bin, err, goos, goarch, bin)
	}
	return bin, nil
}
