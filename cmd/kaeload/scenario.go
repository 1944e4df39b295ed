package main

import (
	"errors"
	"fmt"

	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// compile loads a scenario, applies --set and compiles it for this machine
// (planning: missing CPUs are warnings). Every problem comes back at once,
// marked errInvalid.
func compile(path string, sets setFlags, planning bool) (*plans.Plan, error) {
	return compileWith(path, sets, nil, planning)
}

// compileWith is compile with --threshold additions.
func compileWith(path string, sets setFlags, thresholds []string, planning bool) (*plans.Plan, error) {
	sc, err := scenarios.LoadFile(path)
	if sc == nil {
		return nil, invalid(err)
	}
	// A scenario with values in error comes back too: Compile reports them
	// with every other problem.
	return compileScenario(sc, sets, thresholds, planning)
}

// compileScenario applies --set and --threshold to a loaded scenario and
// compiles it, returning every problem: --set's first.
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
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, invalid(errors.Join(errs...))
	}
	return plan, nil
}

type invalidErr struct{ err error }

func (e invalidErr) Error() string   { return e.err.Error() }
func (e invalidErr) Unwrap() []error { return []error{e.err, errInvalid} }

func invalid(err error) error { return invalidErr{err} }
