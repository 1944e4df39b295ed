package main

import (
	"context"
	"fmt"
	"io"

	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// showProbes reads every probe of plan once (runner.TryProbes) and
// shows its value, or its error as a WARNING: validate and --dry-run
// show a wrong path or pattern before any window is spent on it.
func showProbes(ctx context.Context, w io.Writer, plan *plans.Plan) {
	trials := runner.TryProbes(ctx, plan)
	if len(trials) == 0 {
		return
	}
	fmt.Fprintf(w, "\nprobes, read once now on the server's host (%s):\n", plan.Server.Host)
	for _, t := range trials {
		if t.Err != nil {
			fmt.Fprintf(w, "WARNING: probe %s failed: %v\n  (every window's reading would fail the same way; see docs/probes.md)\n", t.Name, t.Err)
			continue
		}
		fmt.Fprintf(w, "  %s\n", t.Line())
	}
}
