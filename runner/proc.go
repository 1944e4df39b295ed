package runner

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/runner/internal/wire"
)

const (
	stderrLines = 20          // a worker's last stderr lines an error quotes
	killAfter   = time.Second // how long a worker gets to exit after its input closes
)

// WorkerError is a failed worker: which group, on which CPUs, what went
// wrong, and the last lines it wrote to stderr.
type WorkerError struct {
	Group  int      // the group's index in the plan
	CPUs   string   // the group's CPU list ("": unpinned)
	Err    error    // what went wrong
	Stderr []string // the worker's last stderr lines
	Host   string   // the ssh host the group runs on ("": this machine)
	// Why says how the worker ended on its own (proc.ended); "" when the
	// controller found it failing.
	Why string
}

// Error names the group and CPUs and quotes the worker's last stderr lines.
func (e *WorkerError) Error() string {
	var b strings.Builder
	if e.Host != "" {
		fmt.Fprintf(&b, "host %s: ", e.Host)
	}
	fmt.Fprintf(&b, "group %d (CPUs %s): %v", e.Group, cmp.Or(e.CPUs, "unpinned"), e.Err)
	if len(e.Stderr) > 0 {
		b.WriteString("; last worker stderr:\n    " + strings.Join(e.Stderr, "\n    "))
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *WorkerError) Unwrap() error { return e.Err }

// ring keeps the last stderrLines lines written and forwards each to log.
type ring struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	log     io.Writer
	prefix  string
}

func (r *ring) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.partial = append(r.partial, b...)
	for {
		i := bytes.IndexByte(r.partial, '\n')
		if i < 0 {
			break
		}
		r.add(string(r.partial[:i]))
		r.partial = r.partial[i+1:]
	}
	if len(r.partial) > 4096 { // a runaway line: keep it as a line of its own
		r.add(string(r.partial))
		r.partial = r.partial[:0]
	}
	return len(b), nil
}

func (r *ring) add(line string) {
	if r.log != nil {
		fmt.Fprintf(r.log, "%s%s\n", r.prefix, line)
	}
	r.lines = append(r.lines[max(len(r.lines)+1-stderrLines, 0):], line)
}

// last returns the kept lines, an unterminated last line included.
func (r *ring) last() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.lines)
	if len(r.partial) > 0 {
		out = append(out, string(r.partial))
	}
	return out[max(len(out)-stderrLines, 0):]
}

// event is a line from a worker, or the end of its stream (err set).
type event struct {
	w   *proc
	msg wire.Message
	err error
}

// proc is one running worker process.
type proc struct {
	index    int
	cpus     pinning.Set
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stderr   *ring
	quit     chan struct{} // closed when the controller stops listening
	quitOnce sync.Once
	exited   chan struct{} // closed after cmd.Wait returned
	waitErr  error         // cmd.Wait's result, valid after exited
	pid      int
	// host is a remote worker's ssh host (nil: local; pid is then ssh's),
	// workerPID its PID there, from its ready message.
	host      *hostConn
	workerPID int
	// offset is the remote clock minus this one and rtt the round trip
	// (syncClocks); slowest is the longest round trip seen there.
	offset, rtt, slowest time.Duration
}

// startCmd starts cmd as worker index, pinned to cpus when it runs here (a
// remote worker's cmd is ssh; the relay pins it); its stdout lines go to
// events until stop, and the reader goroutine waits for the process.
func startCmd(index int, cpus pinning.Set, cmd *exec.Cmd, host *hostConn, log io.Writer, events chan<- event) (*proc, error) {
	exe := cmd.Path
	p := &proc{
		host:   host,
		index:  index,
		cpus:   cpus,
		cmd:    cmd,
		stderr: &ring{log: log, prefix: fmt.Sprintf("worker %d: ", index)},
		quit:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = killAfter // do not let a leaked pipe hold Wait
	setProcAttr(cmd)
	stdin, err1 := cmd.StdinPipe()
	stdout, err2 := cmd.StdoutPipe()
	if err := errors.Join(err1, err2); err != nil {
		return nil, p.fail(err)
	}
	p.stdin = stdin
	pin := cpus
	if host != nil {
		pin = nil
	}
	if err := pinning.Start(cmd, pin); err != nil {
		return nil, p.fail(fmt.Errorf("start worker %s: %w", exe, err))
	}
	p.pid = cmd.Process.Pid
	go p.read(stdout, events)
	return p, nil
}

// read forwards protocol lines until the stream ends or the controller
// stops listening, then drains the rest and waits for the process.
func (p *proc) read(stdout io.Reader, events chan<- event) {
	lr := wire.NewReader(stdout)
	for {
		m, err := lr.Next()
		select {
		case events <- event{w: p, msg: m, err: err}:
		case <-p.quit:
		}
		if err != nil {
			break
		}
	}
	_, _ = io.Copy(io.Discard, stdout) // lets a still-writing worker reach its exit
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

// send writes one protocol line. A worker that died before is reported
// with its exit status, not as a failed write.
func (p *proc) send(v any) error {
	if err := wire.Write(p.stdin, v); err != nil {
		if status := p.exitStatus(time.Second); status != "still running" {
			return p.gone(status)
		}
		return p.fail(fmt.Errorf("write to worker: %w", err))
	}
	return nil
}

// exitStatus waits up to d for the process to end and describes how it did.
func (p *proc) exitStatus(d time.Duration) string {
	select {
	case <-p.exited:
	case <-time.After(d):
		return "still running"
	}
	if p.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	return p.waitErr.Error()
}

// ended says how the worker's process ended (a signal, a dropped ssh
// connection, an exit status with its last stderr line); "" while it runs.
func (p *proc) ended() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	var ee *exec.ExitError
	if !errors.As(p.waitErr, &ee) {
		return "exited with status 0"
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %d", int(ws.Signal()))
	}
	if p.host != nil && ee.ExitCode() == 255 {
		return "the connection dropped (ssh exit 255)"
	}
	why := fmt.Sprintf("exited with status %d", ee.ExitCode())
	if l := p.stderr.last(); len(l) > 0 {
		why += ": " + l[len(l)-1]
	}
	return why
}

// hostName is the worker's ssh host; "" for this machine.
func (p *proc) hostName() string {
	if p.host == nil {
		return ""
	}
	return p.host.name
}

// gone fails a worker that ended before its final record, as status says.
func (p *proc) gone(status string) *WorkerError {
	if p.host != nil {
		return p.fail(fmt.Errorf("the ssh session of the worker (local ssh pid %d) ended before its final record (%s)", p.pid, status))
	}
	return p.fail(fmt.Errorf("worker (pid %d) exited before its final record (%s)", p.pid, status))
}

// kill kills the worker and waits up to killAfter, so its stderr is whole.
func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	p.exitStatus(killAfter)
}

// decode decodes m into v; a message that does not decode fails the worker.
func (p *proc) decode(m wire.Message, v any) error {
	if err := m.Decode(v); err != nil {
		return p.fail(fmt.Errorf("protocol: %w", err))
	}
	return nil
}

// fail wraps err as a WorkerError for this worker.
func (p *proc) fail(err error) *WorkerError {
	e := &WorkerError{Group: p.index, CPUs: p.cpus.String(), Err: err, Stderr: p.stderr.last()}
	if p.host != nil {
		e.Host = p.host.name
		if r := p.host.conn.DropReason(); r != "" {
			e.Err = fmt.Errorf("%w; %s", err, r)
		}
	}
	return e
}
