package main

import (
	"context"
	"flag"
	"os"

	"github.com/kaeload/kaeload/runner"
)

// workerCommand is the hidden body of one pinned worker process, driven
// over stdin and stdout (locally or through ssh).
var workerCommand = command{name: "worker", summary: "internal: one pinned load process, driven over stdin/stdout",
	hidden: true, help: `Internal: one pinned load process driven over stdin/stdout by "kaeload run".
Not for direct use; the protocol is in docs/internals.md.`,
	setup: func(fs *flag.FlagSet) body {
		relay := fs.Bool("relay", false, "relay for a remote host: start the pinned worker as a child and pass the stream through (what kaeload runs over ssh)")
		return func(ctx context.Context, s stdio, _ []string) error {
			if !*relay {
				return runner.Worker(ctx, s.in, s.out)
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			return runner.Relay(ctx, s.in, s.out, s.err, exe, []string{"worker"})
		}
	}}
