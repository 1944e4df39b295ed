package main

import (
	"context"
	"io"
	"os"

	"github.com/kaeload/kaeload/runner"
)

// workerCmd is the hidden body of one pinned worker process, driven over
// stdin and stdout (locally or through ssh).
func workerCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", "", `Internal: one pinned load process driven over stdin/stdout by "kaeload run".
Not for direct use; the protocol is in docs/internals.md.`, stdout)
	relay := fs.Bool("relay", false, "relay for a remote host: start the pinned worker as a child and pass the stream through (what kaeload runs over ssh)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *relay {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return runner.Relay(ctx, stdin, stdout, stderr, exe, []string{"worker"})
	}
	return runner.Worker(ctx, stdin, stdout)
}
