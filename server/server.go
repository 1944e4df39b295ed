package server

import (
	"bufio"
	"bytes"
	"cmp"
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

// Tally counts what the readiness probes did: lines in some servers' logs.
type Tally struct{ Connections, Handshakes, Requests uint64 }

// Control is the server-side half of a run: how to start, stop and check
// the server. The zero Control does nothing (an externally managed server).
type Control struct {
	Host string            // "local" (or "") for sh -c on this machine
	Env  map[string]string // added to every command's environment
	Log  io.Writer         // every command line and its output
	// Remote, when set, returns the ssh client that runs command on Host.
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

// Summary is the command's first line of output, else its exit status.
func (e *CommandError) Summary() string {
	if e.First != "" {
		return e.First
	}
	return e.Status
}

func (e *CommandError) Error() string {
	on := ""
	if e.Host != "" {
		on = " on ssh host " + e.Host
	}
	msg := fmt.Sprintf("server %s command %q%s failed: %s", e.Step, e.Command, on, e.Status)
	if len(e.Stderr) > 0 {
		msg += "; last output:\n    " + strings.Join(e.Stderr, "\n    ")
	}
	return msg
}

// command runs command as step, its output kept in out and logged.
func (c *Control) command(ctx context.Context, step, command string) (cmd *exec.Cmd, out *output, err error) {
	out = &output{log: c.Log, step: step, command: command}
	switch {
	case c.Remote != nil:
		out.host = c.Host
		cmd = c.Remote(ctx, c.Env, command)
	case c.Host != "" && c.Host != "local":
		return nil, nil, fmt.Errorf("server host %q: only local is supported yet", c.Host)
	default:
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
	cmd.Stdout, cmd.Stderr = out, out
	if c.Log != nil {
		fmt.Fprintf(c.Log, "[%s] $ %s\n", step, command)
	}
	return cmd, out, nil
}

// output logs a command's output line by line and keeps all of it.
type output struct {
	log                 io.Writer
	step, host, command string
	mu                  sync.Mutex
	all                 bytes.Buffer
	logged              int // the bytes of all logged so far
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

// flush logs a last line that has no newline; it and failure are called
// once the command has ended, so no Write runs any more.
func (o *output) flush() {
	if rest := o.all.Bytes()[o.logged:]; len(rest) > 0 && o.log != nil {
		fmt.Fprintf(o.log, "[%s] %s\n", o.step, rest)
	}
	o.logged = o.all.Len()
}

// failure is the command's error, with its last 5 lines and first non-blank.
func (o *output) failure(status string) *CommandError {
	e := &CommandError{Host: o.host, Step: o.step, Command: o.command, Status: status}
	text := strings.TrimRight(o.all.String(), "\n")
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

// Run runs command within timeout; a non-zero exit is a *CommandError.
func (c *Control) Run(ctx context.Context, step, command string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd, out, err := c.command(ctx, step, command)
	if err != nil {
		return "", err
	}
	err = cmd.Run()
	out.flush()
	if err != nil {
		status := err.Error()
		if ctx.Err() == context.DeadlineExceeded {
			status = fmt.Sprintf("did not finish within %v", timeout)
		}
		return out.all.String(), out.failure(status)
	}
	return out.all.String(), nil
}

// Start runs the start command and waits until ready answers. A command
// that exits 0 has daemonized, non-zero failed (even after an old server
// answered); one still running stays until Stop. A failure leaves nothing.
func (c *Control) Start(ctx context.Context, command string, ready Ready) error {
	cmd, out, err := c.command(context.Background(), "start", command) // lives beyond ctx; Stop ends it
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return out.failure(err.Error())
	}
	done := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); out.flush(); close(done) }()
	failed := func() error { // the command's error once it exited non-zero
		select {
		case <-done:
			if waitErr != nil {
				return out.failure(waitErr.Error())
			}
		default:
		}
		return nil
	}
	c.mu.Lock()
	c.fg, c.fgDone, c.fgErr = cmd, done, failed
	c.mu.Unlock()

	err = WaitReady(ctx, ready, done)
	if err == nil {
		// Give a command still running one probe interval to exit: a
		// daemonizing one that fails (after something else answered) is
		// caught before any load.
		_ = sleep(ctx, readyInterval(ready), done)
	}
	select {
	case <-done:
		c.mu.Lock()
		c.fg, c.fgDone, c.fgErr = nil, nil, nil
		c.mu.Unlock()
		if e := failed(); e != nil {
			return e
		}
		if errors.Is(err, errExited) { // exited 0 before ready: daemonized, keep waiting
			err = WaitReady(ctx, ready, nil)
		}
	default:
		// Still running: a foreground server, or a daemonizing command
		// that has not finished yet (see StartFailed).
	}
	if err != nil {
		c.killForeground()
		return &ReadyError{Command: command, Err: err}
	}
	return nil
}

// ReadyError is a start command after which the server did not become ready.
type ReadyError struct {
	Command string
	Err     error // WaitReady's or the context's
}

func (e *ReadyError) Error() string { return fmt.Sprintf("server start %q: %v", e.Command, e.Err) }

// Unwrap returns Err.
func (e *ReadyError) Unwrap() error { return e.Err }

// StartFailed is the *CommandError of a start command that still ran when
// the server became ready and exited non-zero since (an old server answered).
func (c *Control) StartFailed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fgErr == nil {
		return nil
	}
	return c.fgErr()
}

// Stop runs the stop command (if any), then ends a foreground start command
// (SIGTERM to its group, SIGKILL after 5 s); it reports every failure.
func (c *Control) Stop(ctx context.Context, command string, timeout time.Duration) error {
	var err error
	if command != "" {
		_, err = c.Run(ctx, "stop", command, timeout)
	}
	c.killForeground()
	return err
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

// sleep waits d, or returns ctx's error or errExited when they come first.
func sleep(ctx context.Context, d time.Duration, exited <-chan struct{}) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-exited:
		return errExited
	case <-t.C:
		return nil
	}
}

func readyInterval(r Ready) time.Duration {
	if r.Interval <= 0 {
		return 100 * time.Millisecond
	}
	return r.Interval
}

// WaitReady polls until the server answers as r says, r.Timeout passes,
// ctx ends or exited closes (errExited).
func WaitReady(ctx context.Context, r Ready, exited <-chan struct{}) error {
	r.Interval = readyInterval(r)
	if r.Timeout <= 0 {
		r.Timeout = 30 * time.Second
	}
	r.Kind = cmp.Or(r.Kind, "tcp")
	deadline := time.Now().Add(r.Timeout)
	var last error
	for {
		if last = probe(ctx, r, max(r.Interval, time.Second)); last == nil {
			return nil
		}
		if err := sleep(ctx, r.Interval, exited); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v (%s probe): %v", r.Timeout, r.Kind, last)
		}
	}
}

// Listening fails when tries TCP connects to addr over within are all refused.
func Listening(ctx context.Context, addr string, tries int, within time.Duration) error {
	tries = max(tries, 1)
	gap := within / time.Duration(tries)
	var last error
	for i := range tries {
		if i > 0 {
			if err := sleep(ctx, gap, nil); err != nil {
				return err
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
	t := cmp.Or(r.Tally, new(Tally))
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

// Probe is a command whose output's number is read around each window.
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

// Read returns the probe's number; a failing command is a *CommandError.
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
