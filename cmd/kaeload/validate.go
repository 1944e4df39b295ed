package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

var validateCommand = command{name: "validate", summary: "check a scenario file and print the compiled plan",
	synopsis: "[--set path=value]... SCENARIO.yaml", help: `
Checks a scenario file — syntax, unknown keys, types, values, CPU sets
against this machine, URL, TLS names — and prints the compiled plan. Each
server probe is read once, on the server's host, and its value or error
shown (a failed probe is a WARNING; the scenario is still valid).
Every problem is reported at once, each with file:line:col. Exit status 0
when the scenario is valid, 2 when it is not. Keys: docs/scenario.md.`,
	min: 1, max: 1, what: "one scenario file",
	setup: func(fs *flag.FlagSet) body {
		var sets setFlags
		addSetFlag(fs, &sets)
		return func(ctx context.Context, s stdio, pos []string) error {
			plan, err := compile(pos[0], sets, nil, false)
			if err != nil {
				return err
			}
			scenarios.Describe(s.out, plan)
			showProbes(ctx, s.out, plan)
			fmt.Fprintf(s.out, "\n%s: valid\n", pos[0])
			return nil
		}
	}}

// compile loads a scenario, applies --set and --threshold and compiles it
// for this machine (planning: missing CPUs are warnings), every problem at once.
func compile(path string, sets setFlags, thresholds []string, planning bool) (*plans.Plan, error) {
	sc, err := scenarios.LoadFile(path)
	if sc == nil {
		return nil, invalid(err)
	}
	// A scenario with values in error comes back too: Compile reports them
	// with every other problem.
	return compileScenario(sc, sets, thresholds, planning)
}

// compileScenario is compile for a loaded scenario: --set's problems first.
func compileScenario(sc *scenarios.Scenario, sets setFlags, thresholds []string, planning bool) (*plans.Plan, error) {
	var errs []error
	for _, kv := range sets {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			// The value is not echoed: it may be a secret.
			errs = append(errs, fmt.Errorf("--set %s: %w", kv[0], err))
		}
	}
	for _, t := range thresholds {
		sc.AddThreshold(t)
	}
	host := scenarios.LocalHost()
	host.Planning = planning
	plan, err := sc.Compile(host)
	if err = errors.Join(append(errs, err)...); err != nil {
		return nil, invalid(err)
	}
	return plan, nil
}

// showProbes reads every probe once and shows its value or error, so a
// wrong path or pattern shows before any window is spent on it.
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
