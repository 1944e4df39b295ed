package server

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Ready says how to tell that the server answers.
type Ready struct {
	Kind              string // "tcp" (connect), "tls" (handshake) or "https" (GET URL, any status)
	Addr              string // host:port for tcp and tls
	URL               string
	Interval, Timeout time.Duration // between attempts; for the whole wait
	Tally             *Tally        // when set, counts what the probes did
}

// Tally counts the readiness probes' TCP connections, completed TLS
// handshakes and HTTP responses read: lines in some servers' logs.
type Tally struct{ Connections, Handshakes, Requests uint64 }

// Control is the server-side half of a run: how to start, stop and check
// the server. The zero Control does nothing (an externally managed server).
type Control struct {
	Host string            // "local" (or "") for sh -c on this machine
	Env  map[string]string // added to every command's environment
	Log  io.Writer         // every command line and its output
	// Remote, when set, returns the command (an ssh client) that runs
	// command with env on the machine Host names.
	Remote func(ctx context.Context, env map[string]string, command string) *exec.Cmd

	mu     sync.Mutex
	fg     *exec.Cmd // a start command still running in the foreground
	fgDone chan struct{}
	fgErr  func() error // its failure once it exited non-zero
}

// CommandError is a server command that failed.
type CommandError struct {
	Host    string // the remote host the command ran on; "" = this machine
	Step    string // "start", "stop", "reload", "probe …"
	Command string
	Status  string // "exit status 1", "signal: killed", "did not finish within 30s"
	Stderr  []string
	First   string // the first line of output: usually what went wrong
}

// Summary says in one line what went wrong: the command's first line of
// output, or its exit status when it printed nothing.
func (e *CommandError) Summary() string {
	if e.First != "" {
		return e.First
	}
	return e.Status
}

func (e *CommandError) Error() string {
	msg := fmt.Sprintf("server %s command %q failed: %s", e.Step, e.Command, e.Status)
	if e.Host != "" {
		msg = fmt.Sprintf("server %s command %q on ssh host %s failed: %s", e.Step, e.Command, e.Host, e.Status)
	}
	if len(e.Stderr) > 0 {
		msg += "; last output:\n    " + strings.Join(e.Stderr, "\n    ")
	}
	return msg
}

// remoteName is Host for a remote Control, else "".
func (c *Control) remoteName() string {
	if c.Remote == nil {
		return ""
	}
	return c.Host
}

func (c *Control) local() error {
	if c.Host != "" && c.Host != "local" && c.Remote == nil {
		return fmt.Errorf("server host %q: only local is supported yet", c.Host)
	}
	return nil
}

func (c *Control) command(ctx context.Context, command string) *exec.Cmd {
	var cmd *exec.Cmd
	if c.Remote != nil {
		cmd = c.Remote(ctx, c.Env, command)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
		cmd.Env = os.Environ()
		for _, k := range slices.Sorted(maps.Keys(c.Env)) {
			cmd.Env = append(cmd.Env, k+"="+c.Env[k])
		}
	}
	// Own process group: Stop can end the whole tree, and a Ctrl-C sent to
	// kaeload's terminal group does not hit the server mid-teardown.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

func (c *Control) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format, args...)
	}
}

// output logs a command's output line by line and keeps all of it.
type output struct {
	log    io.Writer
	step   string
	mu     sync.Mutex
	all    bytes.Buffer
	logged int // the bytes of all logged so far
}

func (o *output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.all.Write(b)
	for o.log != nil {
		rest := o.all.Bytes()[o.logged:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		fmt.Fprintf(o.log, "[%s] %s", o.step, rest[:i+1])
		o.logged += i + 1
	}
	return len(b), nil
}

// flush logs a last line that has no newline.
func (o *output) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if rest := o.all.Bytes()[o.logged:]; len(rest) > 0 && o.log != nil {
		fmt.Fprintf(o.log, "[%s] %s\n", o.step, rest)
	}
	o.logged = o.all.Len()
}

func (o *output) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.all.String()
}

// failure is the error of command, which ended with status: its last 5
// lines of output, and its first that is not blank.
func (o *output) failure(host, command, status string) *CommandError {
	e := &CommandError{Host: host, Step: o.step, Command: command, Status: status}
	text := strings.TrimRight(o.text(), "\n")
	if text == "" {
		return e
	}
	lines := strings.Split(text, "\n")
	e.Stderr = lines[max(len(lines)-5, 0):]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			e.First = l
			break
		}
	}
	return e
}

// Run runs one command to completion (bounded by timeout) and returns its
// combined output. A non-zero exit is a *CommandError.
func (c *Control) Run(ctx context.Context, step, command string, timeout time.Duration) (string, error) {
	if err := c.local(); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := c.command(ctx, command)
	out := &output{log: c.Log, step: step}
	cmd.Stdout, cmd.Stderr = out, out
	c.logf("[%s] $ %s\n", step, command)
	err := cmd.Run()
	out.flush()
	if err != nil {
		status := err.Error()
		if ctx.Err() == context.DeadlineExceeded {
			status = fmt.Sprintf("did not finish within %v", timeout)
		}
		return out.text(), out.failure(c.remoteName(), command, status)
	}
	return out.text(), nil
}

// Start runs the start command and waits until ready answers. A command
// that exits 0 has daemonized, non-zero failed (even after an old server
// answered); one still running stays until Stop. A failure leaves nothing.
func (c *Control) Start(ctx context.Context, command string, ready Ready) error {
	if err := c.local(); err != nil {
		return err
	}
	cmd := c.command(context.Background(), command) // lives beyond ctx; Stop ends it
	out := &output{log: c.Log, step: "start"}
	cmd.Stdout, cmd.Stderr = out, out
	c.logf("[start] $ %s\n", command)
	if err := cmd.Start(); err != nil {
		return out.failure(c.remoteName(), command, err.Error())
	}
	done := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); out.flush(); close(done) }()
	c.mu.Lock()
	c.fg, c.fgDone = cmd, done
	c.mu.Unlock()

	exited := func() error {
		c.mu.Lock()
		c.fg, c.fgDone = nil, nil
		c.mu.Unlock()
		if waitErr != nil {
			return out.failure(c.remoteName(), command, waitErr.Error())
		}
		return nil
	}
	err := WaitReady(ctx, ready, done)
	if err == nil {
		// Ready while the command still runs: give it one probe interval
		// to exit, so that a daemonizing command that fails (after
		// something else answered the probe) is caught before any load.
		grace := time.NewTimer(readyInterval(ready))
		select {
		case <-done:
		case <-grace.C:
		case <-ctx.Done():
		}
		grace.Stop()
	}
	select {
	case <-done:
		if e := exited(); e != nil {
			return e
		}
		if errors.Is(err, errExited) { // exited 0 before ready: daemonized, keep waiting
			err = WaitReady(ctx, ready, nil)
		}
	default:
		// Still running: a foreground server, or a daemonizing command
		// that has not finished yet (see StartFailed).
		c.mu.Lock()
		c.fgErr = func() error {
			select {
			case <-done:
			default:
				return nil
			}
			if waitErr == nil {
				return nil
			}
			return out.failure(c.remoteName(), command, waitErr.Error())
		}
		c.mu.Unlock()
	}
	if err != nil {
		c.killForeground()
		return &ReadyError{Command: command, Err: err}
	}
	return nil
}

// ReadyError is a start command after which the server did not become
// ready (or the wait for it was cancelled).
type ReadyError struct {
	Command string
	Err     error // WaitReady's or the context's
}

func (e *ReadyError) Error() string { return fmt.Sprintf("server start %q: %v", e.Command, e.Err) }

// Unwrap returns Err.
func (e *ReadyError) Unwrap() error { return e.Err }

// StartFailed returns the start command's *CommandError when it was still
// running as the server became ready and exited non-zero since (an old
// server answered the probe); else nil.
func (c *Control) StartFailed() error {
	c.mu.Lock()
	f := c.fgErr
	c.mu.Unlock()
	if f == nil {
		return nil
	}
	return f()
}

// Stop runs the stop command (if any), then ends a foreground start command
// still running (SIGTERM to its group, SIGKILL after 5 s). It always tries
// both and reports every failure.
func (c *Control) Stop(ctx context.Context, command string, timeout time.Duration) error {
	var errs []error
	if command != "" {
		if _, err := c.Run(ctx, "stop", command, timeout); err != nil {
			errs = append(errs, err)
		}
	}
	c.killForeground()
	return errors.Join(errs...)
}

func (c *Control) killForeground() {
	c.mu.Lock()
	cmd, done := c.fg, c.fgDone
	c.fg, c.fgDone, c.fgErr = nil, nil, nil
	c.mu.Unlock()
	if cmd == nil {
		return
	}
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
}

// Foreground returns the PID of a start command still running, or 0.
func (c *Control) Foreground() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fg == nil {
		return 0
	}
	return c.fg.Process.Pid
}

var errExited = errors.New("start command exited")

func readyInterval(r Ready) time.Duration {
	if r.Interval <= 0 {
		return 100 * time.Millisecond
	}
	return r.Interval
}

// WaitReady polls until the server answers as r says, r.Timeout passes or
// ctx ends. If exited is closed first, it returns errExited.
func WaitReady(ctx context.Context, r Ready, exited <-chan struct{}) error {
	r.Interval = readyInterval(r)
	if r.Timeout <= 0 {
		r.Timeout = 30 * time.Second
	}
	if r.Kind == "" {
		r.Kind = "tcp"
	}
	deadline := time.Now().Add(r.Timeout)
	var last error
	for {
		attempt := r.Interval
		if attempt < time.Second {
			attempt = time.Second
		}
		if last = probe(ctx, r, attempt); last == nil {
			return nil
		}
		wait := time.NewTimer(r.Interval)
		select {
		case <-ctx.Done():
			wait.Stop()
			return ctx.Err()
		case <-exited:
			wait.Stop()
			return errExited
		case <-wait.C:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v (%s probe): %v", r.Timeout, r.Kind, last)
		}
	}
}

// Listening tells whether anything listens on addr: up to tries TCP
// connects spread over within, an error only when every one was refused.
func Listening(ctx context.Context, addr string, tries int, within time.Duration) error {
	tries = max(tries, 1)
	gap := within / time.Duration(tries)
	var last error
	for i := range tries {
		if i > 0 {
			t := time.NewTimer(gap)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		dctx, cancel := context.WithTimeout(ctx, within)
		c, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
		cancel()
		if err == nil {
			return c.Close()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return nil
		}
		last = err
	}
	return fmt.Errorf("%s: nothing listens on it: %d connections within %s were refused (%v)", addr, tries, within, last)
}

func probe(ctx context.Context, r Ready, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addr := r.Addr
	var req *http.Request
	switch r.Kind {
	case "tcp", "tls":
	case "https":
		var err error
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil); err != nil {
			return err
		}
		req.Close = true
		addr = req.URL.Host
		if req.URL.Port() == "" {
			addr = net.JoinHostPort(req.URL.Hostname(), "443")
		}
	default:
		return fmt.Errorf("unknown ready probe %q (want tcp, tls or https)", r.Kind)
	}
	t := r.Tally
	if t == nil {
		t = new(Tally)
	}
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	t.Connections++
	if r.Kind == "tcp" {
		return c.Close()
	}
	host, _, _ := net.SplitHostPort(addr)
	tc := tls.Client(c, &tls.Config{InsecureSkipVerify: true, ServerName: host})
	if err := tc.HandshakeContext(ctx); err != nil {
		return err
	}
	t.Handshakes++
	if req == nil {
		return tc.Close()
	}
	// The request and response in this goroutine, so that t is final
	// when probe returns; any status is an answer.
	defer context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Now()) })()
	if err := req.Write(tc); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReader(tc), req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	t.Requests++
	return resp.Body.Close() // c closes deferred: the server may have closed it first
}

// Probe is a command whose output carries a number, read before and after
// each measured window (e.g. a KAE or QAT hardware request counter).
type Probe struct {
	Name    string
	Command string
	// Pattern's first group (or match) is the number; nil: the first number.
	Pattern *regexp.Regexp
	Timeout time.Duration  // 0: DefaultProbeTimeout
	Func    func() float64 // read instead of a command (this process's counter)
}

// DefaultProbeTimeout bounds a probe command whose Timeout is 0.
const DefaultProbeTimeout = 10 * time.Second

var firstNumber = regexp.MustCompile(`[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?`)

// Read runs the probe's command (bounded by p.Timeout) and returns its
// number. A failing command is a *CommandError.
func (c *Control) Read(ctx context.Context, p Probe) (float64, error) {
	if p.Func != nil {
		return p.Func(), nil
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	out, err := c.Run(ctx, "probe "+p.Name, p.Command, timeout)
	if err != nil {
		return 0, err
	}
	return ParseNumber(p.Pattern, out)
}

// ParseNumber extracts the probe number from output.
func ParseNumber(re *regexp.Regexp, out string) (float64, error) {
	if re == nil {
		re = firstNumber
	}
	m := re.FindStringSubmatch(out)
	if m == nil {
		// The pattern as written (`send_cnt:\s*(\d+)`), not Go-quoted:
		// quoted, and quoted again by a report, its backslashes doubled.
		return 0, fmt.Errorf("output %q does not match the pattern `%s`", clip(out), re)
	}
	s := m[0]
	if len(m) > 1 {
		s = m[1]
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number (from output %q)", s, clip(out))
	}
	return v, nil
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
