package serverprof

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kaeload/kaeload/results"
)

// Rate is the sampling rate perf record runs at, in Hz: a prime, so that
// the samples do not beat with a periodic timer of the server's.
const Rate = 499

// Timing of a session.
const (
	attachTimeout = 20 * time.Second // until perf has attached to the PIDs
	ackTimeout    = 10 * time.Second // an enable or disable
	scriptTimeout = 2 * time.Minute  // perf script and the parse of its output
	limitMargin   = time.Minute      // perf's life past its window: a dead controller's stops soon
)

// Host runs a shell script where the server runs: this machine (Local)
// or an ssh host (the runner adapts remote.Host to it).
type Host interface {
	Name() string // "local", or the ssh host's name
	// Script returns the command running script with sh there, on the command's stdin and stdout.
	Script(ctx context.Context, script string) *exec.Cmd
}

// localHost runs scripts with sh -c on this machine.
type localHost struct{}

// Local is this machine.
func Local() Host { return localHost{} }

// Name is "local".
func (localHost) Name() string { return "local" }

// Script runs script with sh -c, in a process group of its own.
func (localHost) Script(ctx context.Context, script string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Session is perf record attached to a server's processes: Start (sampling off), Enable when the
// window opens, Stop when it closes, or Close to give up.
type Session struct {
	host    Host
	pids    []int
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // the script's protocol lines; closed at its end
	closed  chan struct{} // closed by Close: the reader stops passing lines on
	parsed  chan struct{} // closed once prof and perr hold the parse of perf script's output
	prof    *Profile
	perr    error
	stderr  *tail
	enabled time.Time
	// hz is the host's CLK_TCK; ticks the server processes' CPU ticks and the host's, read
	// right after the enable's and the disable's acknowledgements.
	hz    float64
	ticks [2]ticks
	once  sync.Once
}

// Unavailable is the profile of a repetition without one: its reason, where and what.
func Unavailable(host string, pids []int, reason string) *results.ServerProfile {
	return &results.ServerProfile{Reason: reason, Host: host, PIDs: pids, Rate: Rate}
}

// Start starts perf record on host, attached to pids with sampling off (it stops itself a minute
// after window); without a profile the session is nil and the profile says why.
func Start(ctx context.Context, host Host, pids []int, window time.Duration) (*Session, *results.ServerProfile) {
	if len(pids) == 0 {
		return nil, Unavailable(host.Name(), nil, "server PIDs not found")
	}
	cmd := host.Script(context.WithoutCancel(ctx), script(pids, window+limitMargin))
	s := &Session{host: host, pids: pids, cmd: cmd, lines: make(chan string, 16), parsed: make(chan struct{}),
		stderr: &tail{}, closed: make(chan struct{})}
	cmd.Stderr = s.stderr
	var stdout io.Reader
	stdin, err := cmd.StdinPipe()
	if s.stdin = stdin; err == nil {
		stdout, err = cmd.StdoutPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		return nil, s.none("perf not started: " + err.Error())
	}
	go s.read(stdout)
	line, err := s.await(ctx, attachTimeout)
	if hz, ok := strings.CutPrefix(line, "attached "); err == nil && ok {
		s.hz, _ = strconv.ParseFloat(strings.TrimSpace(hz), 64)
		return s, nil
	}
	prof := s.failure(ctx, line, err)
	s.Close()
	return nil, prof
}

// read passes the script's lines to s.lines up to "script", then parses the rest into s.parsed.
func (s *Session) read(stdout io.Reader) {
	defer close(s.lines)
	br := bufio.NewReader(stdout)
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimRight(line, "\n")
		if line == "script" {
			var gs goSymbols
			if _, ok := s.host.(localHost); ok {
				gs = goSymbols{}
			}
			s.prof, s.perr = parseScript(br, gs)
			close(s.parsed)
			return
		}
		if line != "" || err == nil {
			select {
			case s.lines <- line:
			case <-s.closed:
				return // nobody reads any more
			}
		}
		if err != nil {
			return
		}
	}
}

// await returns the script's next line; an error when it ended, ctx ended or timeout passed.
func (s *Session) await(ctx context.Context, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line, ok := <-s.lines:
		if !ok {
			return "", errors.New("the profiling script ended" + s.stderr.say())
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-t.C:
		return "", fmt.Errorf("perf did not answer within %s", timeout)
	}
}

// failure is why perf stopped, from the script's lines after line (its first) or from err.
func (s *Session) failure(ctx context.Context, line string, err error) *results.ServerProfile {
	if err != nil {
		return s.none("perf failed: " + err.Error())
	}
	if r, ok := strings.CutPrefix(line, "unavailable "); ok {
		if host := s.host.Name(); host != "local" {
			r += " on " + host
		}
		return s.none(r)
	}
	if !strings.HasPrefix(line, "failed") {
		return s.none("perf failed: unexpected " + strconv.Quote(line))
	}
	errs, paranoid, _ := s.errLines(ctx, ackTimeout, "end")
	return s.none(Reason(errs, paranoid))
}

// errLines reads the script's lines up to last: perf's error lines and
// the host's perf_event_paranoid; ok says last came.
func (s *Session) errLines(ctx context.Context, timeout time.Duration, last string) (
	errs []string, paranoid string, ok bool) {
	for {
		l, err := s.await(ctx, timeout)
		if err != nil || l == last {
			return errs, paranoid, err == nil
		}
		if e, ok := strings.CutPrefix(l, "err "); ok {
			errs = append(errs, e)
		} else if v, ok := strings.CutPrefix(l, "paranoid "); ok {
			paranoid = strings.TrimSpace(v)
		}
	}
}

// ticks is one "enabled" or "disabled" line's figures, in the host's clock ticks: the server's
// CPU time, and the host's (all CPUs) steal and busy time, 0 where /proc/stat was unreadable.
type ticks struct{ server, steal, busy float64 }

// parseTicks reads "TICKS STEAL BUSY"; a figure it cannot read is 0.
func parseTicks(line string) ticks {
	f, v := strings.Fields(line), [3]float64{}
	for i := range min(len(f), 3) {
		v[i], _ = strconv.ParseFloat(f[i], 64)
	}
	return ticks{server: v[0], steal: v[1], busy: v[2]}
}

// stolen estimates the server's share of the time the hypervisor stole from the host's CPUs
// between a and b, in ticks: the host's steal in proportion to the server's part of the host's
// busy time (steal befalls a vCPU only while it has work). Unknown (an edge without /proc/stat,
// no busy time): 0.
func stolen(a, b ticks) float64 {
	busy, server := b.busy-a.busy, b.server-a.server
	if a.busy <= 0 || b.busy <= 0 || busy <= 0 || server <= 0 {
		return 0
	}
	return max(b.steal-a.steal, 0) * min(server/busy, 1)
}

// none is the session's profile without samples, for reason.
func (s *Session) none(reason string) *results.ServerProfile {
	return Unavailable(s.host.Name(), s.pids, reason)
}

// Reason words why perf record failed, from its error output and the
// host's kernel.perf_event_paranoid: not permitted, the PIDs gone, a perf
// without control FIFOs, or perf's own first line.
func Reason(perfErr []string, paranoid string) string {
	text := strings.Join(perfErr, "\n")
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	first = strings.TrimSpace(first)
	switch {
	case strings.Contains(text, "perf_event_paranoid") || strings.Contains(text, "Permission denied") || strings.Contains(text, "Operation not permitted"):
		return "not permitted: perf_event_paranoid=" + cmp.Or(paranoid, "unknown") + " (run kaeload's server commands as root, or allow it with sysctl kernel.perf_event_paranoid=1 or lower)"
	case strings.Contains(text, "No such process") || strings.Contains(text, "thread/CPU maps"):
		return "server PIDs not found (they exited before perf attached)"
	case strings.Contains(text, "control") && (strings.Contains(text, "unknown option") || strings.Contains(text, "Unknown option")):
		return "perf too old: it has no --control (perf 5.9 or later needed)"
	case strings.Contains(text, "not found for kernel"), strings.Contains(text, "perf not found"):
		return "perf not found: " + first
	}
	if first != "" {
		return "perf record failed: " + first
	}
	return "perf record failed"
}

// Enable turns sampling on (the window opens) and returns once perf has acknowledged it.
func (s *Session) Enable(ctx context.Context) error {
	if _, err := io.WriteString(s.stdin, "enable\n"); err != nil {
		return fmt.Errorf("enable perf: %w", err)
	}
	line, err := s.await(ctx, ackTimeout)
	ticks, ok := strings.CutPrefix(line, "enabled ")
	if err == nil && !ok {
		err = fmt.Errorf("unexpected %q", line)
	}
	if err != nil {
		return fmt.Errorf("enable perf: %w", err)
	}
	s.ticks[0] = parseTicks(ticks)
	s.enabled = time.Now()
	return nil
}

// Stop turns sampling off (the window closed) once perf acknowledges it,
// stops perf with SIGINT, runs perf script and returns the profile: the
// samples between Enable and now, or why there are none. The session is over.
func (s *Session) Stop(ctx context.Context) *results.ServerProfile {
	defer s.Close()
	if s.enabled.IsZero() {
		return s.none("perf was never enabled")
	}
	if _, err := io.WriteString(s.stdin, "disable\n"); err != nil {
		return s.none("disable perf: " + err.Error())
	}
	line, err := s.await(ctx, ackTimeout)
	ticks, ok := strings.CutPrefix(line, "disabled ")
	if err != nil || !ok {
		return s.failure(ctx, line, err)
	}
	seconds := time.Since(s.enabled).Seconds()
	s.ticks[1] = parseTicks(ticks)
	if perfErr, _, ok := s.errLines(ctx, scriptTimeout, "scripting"); !ok {
		return s.none(Reason(perfErr, "")) // the script ended before perf script ran
	}
	t := time.NewTimer(scriptTimeout)
	defer t.Stop()
	select {
	case <-s.parsed:
		if s.perr != nil {
			return s.none("perf script: " + s.perr.Error())
		}
		rec := s.prof.Record()
		rec.Host, rec.PIDs, rec.Rate, rec.Seconds = s.host.Name(), s.pids, Rate, seconds
		if a, b := s.ticks[0], s.ticks[1]; s.hz > 0 && b.server >= a.server {
			rec.CPUSeconds = (b.server - a.server) / s.hz
			rec.Steal = stolen(a, b) / s.hz
		}
		return &rec
	case <-ctx.Done():
		return s.none("perf script: " + ctx.Err().Error())
	case <-t.C:
		return s.none(fmt.Sprintf("perf script gave no output within %s", scriptTimeout))
	}
}

// Close ends the session: the script's input closes (it stops perf and
// removes its files), and the command is killed and waited for.
func (s *Session) Close() {
	s.once.Do(func() {
		close(s.closed)
		_ = s.stdin.Close()
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			if p := s.cmd.Process; p != nil {
				_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
				_ = p.Kill()
			}
			<-done
		}
	})
}

// script is the shell script that runs perf record on pids for at most
// limit, driven over stdin/stdout: it prints "attached HZ", then
// "enabled TICKS STEAL BUSY" and "disabled TICKS STEAL BUSY" after the
// commands of those names (TICKS: the processes' CPU time, /proc/PID/stat
// fields 14-17; STEAL: the host's steal time, the eighth figure of
// /proc/stat's cpu line; BUSY: the first three and the sixth and seventh),
// then perf's error lines ("err …"), "scripting", "script" and perf script's
// output. A perf that cannot run gives "unavailable REASON" or "failed
// STATUS", its errors, "paranoid N" and "end". EOF on stdin stops perf.
// perf.data is copied to $KAELOAD_PERF_DATA where that is set.
func script(pids []int, limit time.Duration) string {
	ps := make([]string, len(pids))
	for i, p := range pids {
		ps[i] = strconv.Itoa(p)
	}
	secs := strconv.Itoa(int(limit.Seconds()) + 1)
	r := strings.NewReplacer("@PIDS@", strings.Join(ps, ","), "@PIDLIST@", strings.Join(ps, " "), "@RATE@", strconv.Itoa(Rate), "@LIMIT@", secs)
	return r.Replace(scriptText)
}

// scriptText is script's text, @PIDS@, @RATE@ and @LIMIT@ to be filled in.
const scriptText = `export LC_ALL=C
command -v perf >/dev/null 2>&1 || { echo "unavailable perf not found"; exit 0; }
d=$(mktemp -d "${TMPDIR:-/tmp}/kaeload-perf.XXXXXX") || { echo "unavailable no temporary directory for perf.data"; exit 0; }
trap 'rm -rf "$d"' EXIT
mkfifo "$d/ctl" "$d/ack" || { echo "unavailable mkfifo failed"; exit 0; }
t=""
command -v timeout >/dev/null 2>&1 && t="timeout -s INT @LIMIT@"
$t perf record --no-bpf-event -e cpu-clock -F @RATE@ -g -p @PIDS@ -o "$d/perf.data" -D -1 --control "fifo:$d/ctl,$d/ack" </dev/null >"$d/out" 2>"$d/err" &
p=$!
# When perf ends, open the ack FIFO once, so that a read of it (or its
# opening, had perf never opened it) ends instead of waiting forever.
( while kill -0 $p 2>/dev/null; do sleep 1; done; exec 5<>"$d/ack" ) 2>/dev/null &
exec 4<"$d/ack" 3<>"$d/ctl"
fail() {
	kill -INT $p 2>/dev/null; wait $p; echo "failed $?"
	sed 's/^/err /' "$d/err" "$d/out"
	echo "paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"
	echo end; exit 0
}
quit() { kill -INT $p 2>/dev/null; wait $p; exit 0; }
# ticks prints the processes' CPU ticks, the host's steal and busy ticks
# (user nice system irq softirq) with shell builtins only (no exec: it runs
# right after perf's acknowledgement).
rp=') '
ticks() {
	t=0
	for i in @PIDLIST@; do
		l=""
		{ read -r l </proc/$i/stat; } 2>/dev/null
		[ -n "$l" ] || continue
		set -- ${l##*"$rp"}
		t=$((t + ${12} + ${13} + ${14} + ${15}))
	done
	l=""
	{ read -r l </proc/stat; } 2>/dev/null
	set -- $l 0 0 0 0 0 0 0 0 0
	echo $t $9 $(($2 + $3 + $4 + $7 + $8))
}
echo ping >&3; read a <&4 || fail
echo "attached $(getconf CLK_TCK 2>/dev/null || echo 100)"
read c || quit
echo enable >&3; read a <&4 || fail
echo "enabled $(ticks)"
read c || quit
echo disable >&3; read a <&4 || fail
echo "disabled $(ticks)"
kill -INT $p 2>/dev/null; wait $p
sed 's/^/err /' "$d/err"
echo scripting
echo script
perf script -i "$d/perf.data" -F comm,pid,tid,ip,sym,dso 2>/dev/null
[ -z "$KAELOAD_PERF_DATA" ] || cp "$d/perf.data" "$KAELOAD_PERF_DATA" 2>/dev/null
`

// tail keeps the last lines a command wrote to stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the last 2 KiB.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = t.buf[len(t.buf)-2048:]
	}
	return len(p), nil
}

// say is ": LAST LINES" or "".
func (t *tail) say() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	return ": " + strings.ReplaceAll(s, "\n", " | ")
}
