package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/sshdtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/remote"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/runner"
)

// remoteSetup starts sshd and an nginx site that the scenario's server
// commands start and stop (over ssh), and returns the scenario text.
//
// With ns, sshd and nginx live in that network namespace: the controller's
// ssh and the local group's traffic cross the veth pair.
func remoteSetup(t *testing.T, duration string, ns *sshdtest.Netns) (*sshdtest.Server, *nginxtest.Server, string) {
	t.Helper()
	sshd := sshdtest.Start(t, sshdtest.Config{Netns: ns})
	// nginxtest writes the site and proves it runs; the scenario then
	// restarts it through ssh, daemonized, with the variant's env.
	ng := nginxtest.Start(t, nginxtest.Config{})
	_ = syscall.Kill(-ng.Cmd.Process.Pid, syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(ng.Dir, "nginx.pid")); os.IsNotExist(err) {
			break // nginx removes its pid file last
		}
		time.Sleep(20 * time.Millisecond)
	}
	conf := filepath.Join(ng.Dir, "nginx.conf")
	text, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	text = bytes.Replace(text, []byte("daemon off;"), []byte("daemon on;"), 1)
	if ns != nil {
		_, port, _ := net.SplitHostPort(ng.Addr)
		ng.Addr = net.JoinHostPort(ns.NSIP, port)
		text = bytes.Replace(text, []byte("listen 127.0.0.1:"+port), []byte("listen "+ng.Addr), 1)
	}
	if err := os.WriteFile(conf, text, 0o644); err != nil {
		t.Fatal(err)
	}
	start := fmt.Sprintf(`%[3]s -e %[1]s/error.log -p %[1]s -c %[2]s && echo "marker=$KAELOAD_MARK" > %[1]s/env.txt`, ng.Dir, conf, nginxtest.Binary(t))
	stop := fmt.Sprintf(`pidf=%s/nginx.pid; [ -e $pidf ] || exit 0; kill -TERM "$(cat $pidf)" || exit 0
i=0; while [ -e $pidf ]; do sleep 0.05; i=$((i+1)); [ $i -lt 200 ] || exit 1; done`, ng.Dir)
	// The local group on CPU 1, the remote one on CPU 0 where there are two.
	local, far := "", ""
	if online, _ := pinning.Online(); online.Contains(0) && online.Contains(1) {
		local, far = `cpus: "1", `, `cpus: "0", `
	}
	yaml := fmt.Sprintf(`
name: two-hosts
target:
  url: https://%s/index.html
ssh_options: %s
load:
  connection: close
  warmup: 300ms
  duration: %s
  groups:
    - {%sconnections: 4}
    - {%sconnections: 4, host: "%s"}
server:
  host: "%s"
  start: %q
  stop: %q
  env: {KAELOAD_MARK: "it's set"}
`, ng.Addr, sshd.YAMLOptions(), duration, local, far, sshd.URL, sshd.URL, start, stop)
	return sshd, ng, yaml
}

// inWindow matches the progress bars' total line once the window has
// begun (in the warm-up it says "left (warm-up)"), missed starts after it
// or not ("s left, 58 missed"); the bars redraw every 250 ms, on a
// terminal or not.
var inWindow = regexp.MustCompile(`(?m)^total .* s left(, [^(\n]*)? *$`)

// windowOf returns a watcher of the progress bars' lines that reports
// true from the first line that shows label's window begun on.
func windowOf(label string) func(line string) bool {
	seen, begun := false, false
	return func(line string) bool {
		switch {
		case line == label:
			seen = true
		case seen && inWindow.MatchString(line):
			begun = true
		}
		return begun
	}
}

var readyRE = regexp.MustCompile(`worker (\d+) ready: pid (\d+), CPUs (\S*)`)

// watchWorker waits for group's ready line in log and returns the pid and
// the Cpus_allowed_list its /proc/PID/status shows while it runs.
func watchWorker(log *testkit.LockedBuffer, group int, done <-chan struct{}) (pid int, allowed string) {
	for {
		for _, m := range readyRE.FindAllStringSubmatch(log.String(), -1) {
			if m[1] == strconv.Itoa(group) {
				pid, _ = strconv.Atoi(m[2])
				b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
				if err != nil {
					return pid, "unreadable: " + err.Error()
				}
				for _, l := range strings.Split(string(b), "\n") {
					if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
						return pid, strings.TrimSpace(v)
					}
				}
				return pid, "no Cpus_allowed_list"
			}
		}
		select {
		case <-done:
			return 0, ""
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestRemoteGroupAndServer runs one local group and one group on an ssh
// host (a real sshd on 127.0.0.1) against nginx started and stopped
// through ssh: nginx's access log holds exactly what both groups
// counted, the remote worker ran pinned to its group's CPUs, the binary
// on the host is this build, the server's env arrived, and the server's
// CPU was measured from /proc/stat over ssh.
func TestRemoteGroupAndServer(t *testing.T) {
	t.Run("loopback", func(t *testing.T) { testRemoteGroupAndServer(t, nil) })
	// Better: the server's host in a network namespace of its own, so
	// ssh and the local group's traffic cross a real (veth) interface.
	t.Run("netns", func(t *testing.T) { testRemoteGroupAndServer(t, sshdtest.NewNetns(t)) })
}

func testRemoteGroupAndServer(t *testing.T, ns *sshdtest.Netns) {
	sshd, ng, yaml := remoteSetup(t, "1s", ns)
	// In the namespace the server is also profiled over ssh (issue 31).
	profiled := ns != nil && hasPerf(t)
	if profiled {
		yaml += "  profile: true\n"
	}
	plan := compileYAML(t, yaml)
	var packets uint64
	if ns != nil {
		packets = ns.Packets(t)
	}
	log := &testkit.LockedBuffer{}
	done := make(chan struct{})
	var pid int
	var allowed string
	watched := make(chan struct{})
	go func() { pid, allowed = watchWorker(log, 1, done); close(watched) }()
	steal := testkit.HostSteal(t)
	r, err := runner.Run(context.Background(), plan, workerOptions(log))
	steal = testkit.HostSteal(t) - steal
	close(done)
	<-watched
	if err != nil {
		t.Fatalf("run: %v\n%s\nsshd:\n%s", err, log.String(), sshd.Log())
	}
	if ns != nil {
		// Every request of the local group is a connection across the
		// veth pair: several packets each.
		if got, min := ns.Packets(t)-packets, r.Variants[0].Reps[0].Groups[0].Requests; got < min {
			t.Errorf("%d packets crossed the veth pair for %d requests of the local group", got, min)
		}
	}
	var text bytes.Buffer
	if err := render.WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "host "+sshd.URL+": group 1 on CPUs") || !strings.Contains(text.String(), "host      "+sshd.URL+": group 1 and the server;") {
		t.Errorf("the report does not show the host:\n%s", text.String())
	}
	t.Logf("report:\n%s", text.String())
	rep := r.Variants[0].Reps[0]
	total := rep.Total
	if len(rep.Groups) != 2 || rep.Groups[0].Requests == 0 || rep.Groups[1].Requests == 0 {
		t.Fatalf("groups %+v: want both counting", rep.Groups)
	}
	if g := rep.Groups[1]; g.Host != sshd.URL {
		t.Errorf("group 1 host %q, want %q", g.Host, sshd.URL)
	}
	lines := nginxtest.ReadLog(t, filepath.Join(ng.Dir, "access.log"))
	// The remote worker was pinned, seen from the kernel.
	want := rep.Groups[1].CPUs
	if want == "" {
		want = allowedSelf(t)
	}
	if pid == 0 || allowed != want {
		t.Errorf("remote worker pid %d Cpus_allowed_list %q, want %q\n%s", pid, allowed, want, log.String())
	}
	// The binary on the host is this build.
	hash, err := remote.FileHash(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := remote.FileHash(filepath.Join(sshd.Home, ".cache/kaeload", hash, "kaeload")); err != nil || got != hash {
		t.Errorf("binary on the host: sha256 %s (%v), want %s", got, err, hash)
	}
	if len(r.Hosts) != 1 || r.Hosts[0].Binary != hash || !r.Hosts[0].Uploaded || r.Hosts[0].RTT <= 0 {
		t.Errorf("run hosts %+v", r.Hosts)
	}
	// The server's env went over ssh explicitly.
	if b, _ := os.ReadFile(filepath.Join(ng.Dir, "env.txt")); string(b) != "marker=it's set\n" {
		t.Errorf("server saw %q", b)
	}
	if rep.ServerCPU == nil || rep.ServerCPU.Seconds <= 0 {
		t.Errorf("server CPU %+v, want measured", rep.ServerCPU)
	}
	// The server's CPUs watched over ssh: its affinity read there, their
	// busy time, the other processes there.
	if s := rep.ServerCPUs; s == nil || s.Host != sshd.URL || s.CPUs == "" || s.Busy == nil || len(s.PIDs) < 2 {
		t.Errorf("server's CPUs %+v, want measured on %s", s, sshd.URL)
	} else {
		t.Logf("server's CPUs on %s: %s, busy %.2f, others %+v", s.Host, s.CPUs, s.Busy.Busy, s.Others)
		// The remote group runs on the server's host; where it is pinned
		// to one of the server's CPUs, the two share it; the local group
		// runs on another machine as far as kaeload knows.
		u, _ := analysis.RepServerCPUUse(&rep)
		g := rep.Groups[1]
		server, _ := pinning.Parse(s.CPUs)
		mine, _ := pinning.Parse(g.CPUs)
		wantShared := len(mine) > 0 && len(mine.Missing(server)) < len(mine)
		if got := len(u.Shared) == 1 && u.Shared[0].Group == 1; got != wantShared || len(u.Shared) > 1 {
			t.Errorf("shared %+v with the server's CPUs %s, want group 1 (CPUs %q) alone: %v", u.Shared, s.CPUs, g.CPUs, wantShared)
		}
	}
	if !strings.Contains(log.String(), "server CPU: the process tree of nginx pid") {
		t.Errorf("server CPU not from nginx's process tree over ssh:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(ng.Dir, "nginx.pid")); !os.IsNotExist(err) {
		t.Errorf("nginx still running after the run (stop over ssh): %v", err)
	}
	checkRemoteTCP(t, rep, sshd.URL, ns != nil)
	if profiled {
		checkRemoteProfile(t, r, sshd.URL, steal)
	}
	testkit.SameResponses(t, "nginx", uint64(len(lines)), total.Counts)
}

// checkRemoteTCP checks the kernel TCP counters of rep's timeline, run by
// testRemoteGroupAndServer: on loopback everything shares this machine's
// network namespace, read once, as one host with both roles. With the
// ssh host in a namespace of its own, that namespace (the remote group's
// and the server's, read over ssh) and this one (the local group's) are
// two hosts whose counters really differ: the server's PassiveOpens hold
// both groups' connections, its ActiveOpens the remote group's alone (at
// most those that ended outside the window beside them: never the local
// group's, so nothing is counted twice), and this machine's ActiveOpens
// at least the local group's.
func checkRemoteTCP(t *testing.T, rep results.Rep, host string, apart bool) {
	t.Helper()
	tl := rep.Timeline
	if tl == nil {
		t.Fatal("the repetition has no timeline")
	}
	t.Logf("TCP hosts: %+v; listener %+v", tl.Hosts, tl.Listener)
	// The server's listener, read over ssh (ss) at every boundary.
	if l := tl.Listener; l == nil || l.Host != host || l.Unavailable != "" || l.Backlog == 0 || !slices.ContainsFunc(l.Queue, func(q *uint64) bool { return q != nil }) {
		t.Errorf("the target's listener %+v, want read on %s", l, host)
	}
	sum := func(h int, name string) uint64 {
		var n uint64
		for i := range tl.Points {
			v, ok := tl.TCP(i, h, name)
			if !ok {
				t.Errorf("host %s: %s not available at point %d", tl.Hosts[h].Name, name, i)
			}
			n += v
		}
		return n
	}
	opened := func(g results.Group) uint64 { return g.Connections + g.Outside.Warmup }
	if !apart {
		if len(tl.Hosts) != 1 {
			t.Fatalf("%d TCP hosts, want one: every side shares this machine's namespace", len(tl.Hosts))
		}
		if h := tl.Hosts[0]; h.Name != "local = "+host || !h.Client || !h.Server || !h.Shared || h.Namespace == "" {
			t.Errorf("TCP host %+v, want local = %s, client and server, shared", h, host)
		}
		return
	}
	if len(tl.Hosts) != 2 {
		t.Fatalf("%d TCP hosts, want this machine's and the ssh host's namespace", len(tl.Hosts))
	}
	local, far := tl.Hosts[0], tl.Hosts[1]
	if local.Name != "local" || !local.Client || local.Server || local.Shared {
		t.Errorf("first TCP host %+v, want local, the clients' only", local)
	}
	if far.Name != host || !far.Client || !far.Server || !far.Shared {
		t.Errorf("second TCP host %+v, want %s, clients and server shared", far, host)
	}
	if local.Namespace == "" || local.Namespace == far.Namespace {
		t.Errorf("namespaces %q and %q, want two", local.Namespace, far.Namespace)
	}
	g0, g1 := rep.Groups[0], rep.Groups[1]
	if got, want := sum(0, "ActiveOpens"), opened(g0); got < want {
		t.Errorf("this machine's ActiveOpens %d, want at least the local group's %d connections", got, want)
	}
	if got, want := sum(1, "PassiveOpens"), opened(g0)+opened(g1); got < want {
		t.Errorf("the server's PassiveOpens %d, want at least both groups' %d connections", got, want)
	}
	o := g1.Outside
	slack := o.Late + o.Abandoned + o.WarmupErrors + uint64(g1.Slots)
	if got, want := sum(1, "ActiveOpens"), opened(g1); got < want || got > want+slack {
		t.Errorf("the server host's ActiveOpens %d, want the remote group's %d connections (+ at most %d outside the window)", got, want, slack)
	}
}

// allowedSelf is this process's CPU list (an unpinned group's).
func allowedSelf(t *testing.T) string {
	s, err := pinning.Allowed("self")
	if err != nil {
		t.Fatal(err)
	}
	return s.String()
}

// TestRemoteConnectionDropped cuts the ssh connection mid-window (the
// master ssh process is killed): the run fails with an error naming the
// host and group, keeps the window FAILED saying the connection dropped,
// and the remote worker does not survive.
func TestRemoteConnectionDropped(t *testing.T) {
	_, _, yaml := remoteSetup(t, "20s", nil)
	plan := compileYAML(t, yaml)
	log := &testkit.LockedBuffer{}
	done := make(chan struct{})
	var pid int
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		pid, _ = watchWorker(log, 1, done)
		if pid == 0 {
			return
		}
		// Into the window: the bars leave the warm-up.
		for !inWindow.MatchString(log.String()) {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		for _, m := range masters(t) {
			_ = syscall.Kill(m, syscall.SIGKILL)
		}
	}()
	began := time.Now()
	opts := workerOptions(log)
	opts.Progress, opts.ProgressMode = log, runner.ProgressOn
	run, err := runner.Run(context.Background(), plan, opts)
	close(done)
	<-watched
	if err == nil {
		t.Fatalf("run succeeded after its ssh connection was cut\n%s", log.String())
	}
	if len(run.Variants) != 1 || len(run.Variants[0].Partial) != 1 {
		t.Errorf("run: %d variants; want the window kept FAILED", len(run.Variants))
	} else if l := run.Variants[0].Partial[0].Lost; l == nil || l.Group != 1 || l.Host != plan.Hosts[0].Name || l.Why != "the connection dropped (ssh exit 255)" {
		t.Errorf("lost group %+v, want group 1 on %s, the connection dropped", l, plan.Hosts[0].Name)
	}
	if time.Since(began) > 15*time.Second {
		t.Errorf("the run took %s to notice", time.Since(began))
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), "host "+plan.Hosts[0].Name) || !strings.Contains(err.Error(), "group 1") {
		t.Errorf("error %q does not name the host and group 1", err)
	}
	if pid == 0 {
		t.Fatalf("remote worker never ready\n%s", log.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for testkit.Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if testkit.Alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("remote worker pid %d still running 5 s after the connection was cut", pid)
	}
}

// masters are this process's child ssh master processes (ssh -M).
func masters(t *testing.T) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	me := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(me) {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if args := strings.Split(string(cmdline), "\x00"); len(args) > 1 && filepath.Base(args[0]) == "ssh" && args[1] == "-M" {
			out = append(out, pid)
		}
	}
	if len(out) == 0 {
		t.Error("no ssh master found among this process's children")
	}
	return out
}

// TestRemoteUnreachable: a host nobody answers on, or one that refuses
// the key, stops the run before any load with an error naming the host
// and its group.
func TestRemoteUnreachable(t *testing.T) {
	sshd := sshdtest.Start(t, sshdtest.Config{})
	wrongKey := filepath.Join(t.TempDir(), "wrong")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", wrongKey).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	refused := strings.Replace(sshd.YAMLOptions(), sshd.Key, wrongKey, 1)
	for _, tc := range []struct{ name, host, opts, want string }{
		{"unreachable", "ssh://127.0.0.1:1", sshd.YAMLOptions(), "Connection refused"},
		{"refused key", sshd.URL, refused, "Permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := compileYAML(t, fmt.Sprintf(`
target: {url: "https://127.0.0.1:9/"}
ssh_options: %s
load: {duration: 1s, groups: [{connections: 1}, {connections: 1, host: "%s"}]}
`, tc.opts, tc.host))
			_, err := runner.Run(context.Background(), plan, workerOptions(nil))
			if err == nil {
				t.Fatal("run succeeded")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "group 1: ssh host "+tc.host+": connect:") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want it to name %s, group 1 and %q", msg, tc.host, tc.want)
			}
		})
	}
}

// TestRemoteMaxSessions: more groups on a host than its sshd allows
// sessions on one connection still run: ssh opens a connection of its own
// for each session the master is refused.
func TestRemoteMaxSessions(t *testing.T) {
	sshd := sshdtest.Start(t, sshdtest.Config{MaxSessions: 2})
	ng := nginxtest.Start(t, nginxtest.Config{})
	plan := compileYAML(t, fmt.Sprintf(`
target: {url: "https://%s/index.html"}
ssh_options: %s
load: {duration: 500ms, warmup: 0s, groups: [{connections: 1, host: "%[3]s"}, {connections: 1, host: "%[3]s"}, {connections: 1, host: "%[3]s"}]}
`, ng.Addr, sshd.YAMLOptions(), sshd.URL))
	r, err := runner.Run(context.Background(), plan, workerOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Variants[0].Reps[0].Groups {
		if g.Requests == 0 || g.Host != sshd.URL {
			t.Errorf("group %d on %q counted %d requests", g.Index, g.Host, g.Requests)
		}
	}
}
