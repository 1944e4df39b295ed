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

// Relay is `kaeload worker --relay` on a remote host: it starts exe pinned
// to the spec's CPUs and passes the stream through. When in ends the
// worker is killed killAfter later, so none outlives its session.
func Relay(ctx context.Context, in io.Reader, out, stderr io.Writer, exe string, args []string) error {
	lr := wire.NewReader(in)
	spec, err := readSpec(lr)
	if errors.Is(err, errControllerGone) {
		return err
	}
	if err != nil {
		return relayFail(out, fmt.Errorf("relay: %w", err))
	}
	// Once the session's input ended, the worker is killed killAfter later,
	// or at once when ctx ends.
	kctx, kill := context.WithCancel(context.WithoutCancel(ctx))
	defer kill()
	cmd := exec.CommandContext(kctx, exe, args...)
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
	go func() {
		if err := wire.Write(stdin, spec); err == nil {
			_, _ = io.Copy(stdin, lr.Rest())
		}
		_ = stdin.Close() // the session ended: the worker stops
		time.AfterFunc(killAfter, kill)
		context.AfterFunc(ctx, kill)
	}()
	err = cmd.Wait()
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
