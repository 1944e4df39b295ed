package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/rundir"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// resumeStore reopens the run directory dir and returns its store and run
// so far; nothing is written until the resumed run begins, so a resume
// that fails leaves the directory as it was.
func resumeStore(dir string) (*store, *results.Run, error) {
	st := &store{dir: dir, log: &runLog{}, resuming: true}
	j, prev, err := rundir.ResumeJournal(dir, dirOptions)
	if err != nil {
		return nil, nil, err
	}
	st.journal = j
	// What is logged before the run begins waits in memory.
	f, err := os.OpenFile(filepath.Join(dir, rundir.LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		j.End(prev.Finished, true) // closes it: nothing was written
		return nil, nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	st.logFile = f
	return st, prev, nil
}

// resumePlan is the plan a resumed run continues: the scenario compiled
// again when given, else the stored plan (which hides secret env values).
// A randomized order keeps the stored seed.
func resumePlan(prev *results.Run, scenarioPath string, sets setFlags, thresholds []string) (*plans.Plan, error) {
	var plan *plans.Plan
	if scenarioPath != "" {
		p, err := compileWith(scenarioPath, sets, thresholds, false)
		if err != nil {
			return nil, err
		}
		plan = p
	} else {
		if len(sets) > 0 || len(thresholds) > 0 {
			return nil, usageError(fmt.Errorf("run --resume: --set and --threshold need the scenario file (the stored plan is used as it ran)"))
		}
		plan = &plans.Plan{}
		if err := json.Unmarshal(prev.Plan, plan); err != nil {
			return nil, fmt.Errorf("resume: the stored plan does not read: %w", err)
		}
		for _, v := range plan.Variants {
			if len(v.SecretEnv) > 0 {
				return nil, usageError(fmt.Errorf("run --resume: variant %s has secret env values, which the stored plan hides: give the scenario file too (kaeload run --resume DIR SCENARIO.yaml)", v.Name))
			}
		}
	}
	if plan.Order == results.OrderRandomized && prev.Order == results.OrderRandomized {
		plan = plan.WithSeed(prev.Seed)
	}
	return plan, nil
}
