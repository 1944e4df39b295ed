package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kaeload/kaeload/scenarios"
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
			plan, err := compile(pos[0], sets, false)
			if err != nil {
				return err
			}
			scenarios.Describe(s.out, plan)
			showProbes(ctx, s.out, plan)
			fmt.Fprintf(s.out, "\n%s: valid\n", pos[0])
			return nil
		}
	}}
