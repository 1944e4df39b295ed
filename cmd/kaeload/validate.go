package main

import (
	"context"
	"fmt"
	"io"

	"github.com/kaeload/kaeload/scenarios"
)

func validateCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var sets setFlags
	fs := newFlagSet("validate", "[--set path=value]... SCENARIO.yaml", `
Checks a scenario file — syntax, unknown keys, types, values, CPU sets
against this machine, URL, TLS names — and prints the compiled plan. Each
server probe is read once, on the server's host, and its value or error
shown (a failed probe is a WARNING; the scenario is still valid).
Every problem is reported at once, each with file:line:col. Exit status 0
when the scenario is valid, 2 when it is not. Keys: docs/scenario.md.`, stdout)
	addSetFlag(fs, &sets)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 1, 1, "one scenario file"); err != nil {
		return err
	}
	plan, err := compile(pos[0], sets, false)
	if err != nil {
		return err
	}
	scenarios.Describe(stdout, plan)
	showProbes(ctx, stdout, plan)
	fmt.Fprintf(stdout, "\n%s: valid\n", pos[0])
	return nil
}
