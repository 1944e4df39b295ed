package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/runner/internal/wire"
)

// Relay is the body of `kaeload worker --relay`, what a remote host runs
// for a worker group at the end of an ssh session: it reads the group's
// spec line, starts exe with args (the plain `kaeload worker`) pinned to
// the group's CPUs from its first instruction with pinning.Start — exactly
// as the controller pins a local worker — hands it the spec, and then
// passes the stream through unchanged: in to the worker's stdin, the
// worker's stdout straight to out. So the controller speaks the same
// protocol to a remote worker as to a local one.
//
// When in ends — the controller closed the session, or the ssh connection
// dropped and sshd closed the session's pipes — the worker's input is
// closed, which stops its load, and it is killed if it has not exited
// killAfter later. On Linux the worker also gets SIGKILL when the relay
// dies (Pdeathsig), so no worker outlives its ssh session. Relay returns
// when the worker has exited.
func Relay(ctx context.Context, in io.Reader, out, stderr io.Writer, exe string, args []string) error {
	lr := wire.NewReader(in)
	m, err := lr.Next()
	if errors.Is(err, io.EOF) {
		return errControllerGone
	}
	if err != nil {
		return relayFail(out, fmt.Errorf("relay: read spec: %w", err))
	}
	var spec wire.Spec
	if m.Type != wire.TypeSpec {
		return relayFail(out, fmt.Errorf("relay: want a %q message first, got %q", wire.TypeSpec, m.Type))
	}
	if err := m.Decode(&spec); err != nil {
		return relayFail(out, err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = os.Environ()
	cmd.Stdout, cmd.Stderr = out, stderr
	setProcAttr(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return relayFail(out, err)
	}
	if err := pinning.Start(cmd, pinning.Set(spec.GroupSpec.CPUs)); err != nil {
		return relayFail(out, fmt.Errorf("group %d: start worker pinned to CPUs %s on this host: %w", spec.Group, pinning.Set(spec.GroupSpec.CPUs), err))
	}
	done := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(done) }()
	go func() {
		if _, err := stdin.Write(m.Line()); err == nil {
			_, _ = io.Copy(stdin, lr.Rest())
		}
		_ = stdin.Close() // the session ended: the worker stops
		select {
		case <-done:
		case <-time.After(killAfter):
			_ = cmd.Process.Kill()
		case <-ctx.Done():
			_ = cmd.Process.Kill()
		}
	}()
	<-done
	err = waitErr
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("worker %s", ee.ProcessState)
	}
	return err
}

// relayFail reports err to the controller as a protocol error and returns it.
func relayFail(out io.Writer, err error) error {
	_ = wire.Write(out, wire.Error{Type: wire.TypeError, Message: err.Error()})
	return err
}
