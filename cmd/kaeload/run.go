package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

var runCommand = command{name: "run", summary: "run a scenario (or a URL): every variant × repetition, then the comparison",
	synopsis: "[flags] SCENARIO.yaml | URL", help: `
Runs every variant × repetition of a scenario, or of a URL with the "URL
mode" flags (-c 200 -d 60s --cpus 0-9,10-19), into runs/<UTC time>-<name>/.
See docs/scenario.md and docs/outputs.md.`,
	setup: func(fs *flag.FlagSet) body {
		f := &runFlags{}
		f.register(fs)
		return func(ctx context.Context, s stdio, pos []string) error {
			if err := f.check(fs, pos); err != nil {
				return err
			}
			return f.run(ctx, s)
		}
	}}

// runFlags is the command line of kaeload run, parsed and checked.
type runFlags struct {
	dryRun, noSave, waitQuiet, verbose bool
	out, resultsDir, progress, format  string
	resumeDir, seed                    string

	sets       setFlags
	thresholds []string
	metrics    metricsFlags
	ol         oneLine
	path       string   // the scenario file or URL; "" resumes the stored plan
	report     renderer // the report --format asks for
}

// runInput is what a run starts from.
type runInput struct {
	plan         *plans.Plan
	scenarioText string // the scenario URL mode wrote (no file holds it)
	st           *store
	prev         *results.Run // the run so far, when resuming
}

// run runs the checked command line.
func (f *runFlags) run(ctx context.Context, s stdio) error {
	in, err := f.input(s.out, s.err)
	if err != nil || in == nil {
		return err
	}
	if f.dryRun { // the plan, what a search may cost, and every probe read once
		scenarios.Describe(s.out, in.plan) // warnings included
		if l := runner.SearchPlan(in.plan); l != "" {
			fmt.Fprintln(s.out, l)
		}
		showProbes(ctx, s.out, in.plan)
		return nil
	}
	printWarnings(s.err, in.plan)
	obs, err := f.metrics.serve(in.plan, s.err)
	if err != nil {
		return err
	}
	opts := runner.Options{Progress: s.err, ProgressMode: f.progress, Abort: s.abort, Resume: in.prev}
	if obs != nil {
		defer obs.Close()
		opts.Outputs = append(opts.Outputs, obs)
	}
	if !f.noSave && in.st == nil {
		if in.st, err = newStore(f.out, f.resultsDir); err != nil {
			return err
		}
	}
	// Logs, which may hold a secret env value, go redacted to stderr and the
	// run log; the workers' chatter only to the run log, unless --verbose.
	log := s.err
	if st := in.st; st != nil {
		if in.prev == nil {
			opts.About = about(f.path, in.scenarioText, in.plan.Redact)
		}
		log = io.MultiWriter(s.err, st.log)
		opts.Outputs = append(opts.Outputs, st) // last: it stores the header
	}
	opts.Log = newRedactWriter(log, in.plan.Secrets, in.plan.Redact)
	if in.st != nil && !f.verbose {
		opts.WorkerLog = newRedactWriter(in.st.log, in.plan.Secrets, in.plan.Redact)
	}
	r, runErr := runner.Run(ctx, in.plan, opts)
	flushRedacted(opts.Log)
	flushRedacted(opts.WorkerLog)
	dir, runErr := finishStore(in, r, runErr, s.err)
	var m *analysis.Report // the analysis, computed once for every rendering and the outcome
	if r != nil {
		// What was measured shows even when the run failed; with a
		// machine-readable format on stdout, the text goes to stderr. The
		// run's warnings are annotated as run.json has them (missed starts
		// among them), so that what is printed is what report prints.
		analysis.Annotate(r)
		m = analysis.Analyze(r)
		if f.format != "text" {
			runErr = errors.Join(runErr, render.WriteText(s.err, m))
		}
		runErr = errors.Join(runErr, f.report(s.out, m))
	}
	if dir != "" {
		defer fmt.Fprintf(s.err, "kaeload: results written to %s\n", dir)
	}
	return runOutcome(ctx, m, runErr)
}

// register adds run's flags to fs.
func (f *runFlags) register(fs *flag.FlagSet) {
	addSetFlag(fs, &f.sets)
	fs.Func("exclude-flagged", "set aside and measure again up to `N` windows per variant that measured the client (CLIENT-BOUND) or shared CPUs (OTHER LOAD, SHARED CPUS); they are kept in every report, in no statistic (scenario key exclude_flagged)", func(v string) error {
		f.sets = append(f.sets, [2]string{"exclude_flagged", v})
		return nil
	})
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the compiled plan (groups, CPU sets, variants, how long it takes), read each probe once, and exit without sending load")
	fs.StringVar(&f.out, "o", "", "write the run to this new directory (default: runs/<UTC time>-<scenario name>, see --results)")
	fs.StringVar(&f.out, "out", "", "same as -o")
	fs.StringVar(&f.resultsDir, "results", "runs", "parent directory of run directories (created if missing)")
	fs.BoolVar(&f.noSave, "no-save", false, "do not write a run directory")
	fs.StringVar(&f.progress, "progress", "auto", "progress display: auto (bars on a terminal, status lines otherwise), on (bars), plain (status lines), off")
	fs.StringVar(&f.seed, "seed", "", "seed of the randomized order, to replay a run's order (same as --set seed=N; a run prints and stores its seed)")
	fs.Func("threshold", `a pass/fail criterion per variant, e.g. "p99 handshake < 20ms" (repeatable; added to the scenario's thresholds)`, appendTo(&f.thresholds))
	fs.StringVar(&f.format, "format", "text", "report on standard output: text, json (a summary; the text report goes to standard error) or md")
	fs.StringVar(&f.resumeDir, "resume", "", "continue the interrupted run in this run directory from its journal (its stored plan, or the scenario file given)")
	fs.BoolVar(&f.waitQuiet, "wait-quiet", false, "wait for a quiet machine before each window (scenario key quiet)")
	fs.BoolVar(&f.verbose, "verbose", false, "print the workers' chatter (their stderr, clock offsets) here too, not only in run.log")
	fs.StringVar(&f.metrics.listen, "metrics", "", "serve live metrics for Prometheus on this host:port while the run goes on (127.0.0.1:0: a free port, printed); see docs/metrics.md")
	fs.DurationVar(&f.metrics.wait, "metrics-wait", 0, "hold the first load until a Prometheus scrape has read the zeros, at most this long (none: the run fails before any load)")
	fs.DurationVar(&f.metrics.linger, "metrics-linger", 0, "how long the end waits for a scrape of the final values (default three observed scrape intervals, 15s while none was observed)")
	f.ol.register(fs)
}

// check rejects what does not go together on run's command line.
func (f *runFlags) check(fs *flag.FlagSet, pos []string) error {
	if len(pos) > 0 {
		f.path = pos[0]
	}
	switch {
	case f.resumeDir != "" && (len(pos) > 1 || f.dryRun || f.out != "" || f.noSave || f.seed != "" || f.waitQuiet || isURL(f.path)):
		return usageError(fmt.Errorf("run --resume DIR: takes at most the scenario file, and no URL, --dry-run, -o, --no-save, --seed or --wait-quiet"))
	case f.resumeDir == "":
		if err := wantArgs(fs, pos, 1, 1, "one scenario file or URL"); err != nil {
			return err
		}
	}
	var urlOnly []string
	fs.Visit(func(fl *flag.Flag) {
		if !isURL(f.path) && strings.HasPrefix(fl.Usage, urlModePrefix) {
			urlOnly = append(urlOnly, "-"+fl.Name)
		}
	})
	if len(urlOnly) > 0 {
		return usageError(fmt.Errorf("run: %s: only with a URL instead of a scenario file (set a file's fields with --set)", strings.Join(urlOnly, ", ")))
	}
	if f.seed != "" {
		if _, err := strconv.ParseUint(f.seed, 10, 64); err != nil {
			return usageError(fmt.Errorf("run: --seed %q: want a whole number from 0 to %d (a run prints and stores its seed)", f.seed, uint64(math.MaxUint64)))
		}
		f.sets = append(f.sets, [2]string{"seed", f.seed})
	}
	if _, err := oneOf(fs, "--progress", f.progress, progressModes...); err != nil {
		return err
	}
	i, err := oneOf(fs, "--format", f.format, "text", "json", "md")
	f.report = []renderer{render.WriteText, render.WriteSummaryJSON, render.WriteMarkdown}[i]
	return err
}

// input compiles the plan to run; nil once --print-scenario printed it.
func (f *runFlags) input(stdout, stderr io.Writer) (*runInput, error) {
	in := &runInput{}
	var err error
	switch {
	case f.resumeDir != "":
		return f.resumeInput(stderr)
	case isURL(f.path):
		in.plan, in.scenarioText, err = compileOneLine(&f.ol, f.path, f.sets, f.thresholds, f.dryRun || f.ol.print)
		if f.ol.print && err == nil {
			// Compiled as for --dry-run: it may be meant for another machine.
			fmt.Fprint(stdout, in.scenarioText)
			return nil, nil
		}
	default:
		in.plan, err = compile(f.path, f.sets, f.thresholds, f.dryRun)
	}
	if err != nil {
		return nil, err
	}
	if f.waitQuiet && in.plan.Quiet == nil {
		in.plan.Quiet = new(plans.DefaultQuiet)
	}
	return in, nil
}

// resumeInput reopens --resume's run directory and the plan it continues.
// A randomized order keeps the stored seed.
func (f *runFlags) resumeInput(stderr io.Writer) (*runInput, error) {
	st, prev, err := resumeStore(f.resumeDir)
	if err != nil {
		return nil, err
	}
	plan, err := f.resumePlan(prev)
	if err != nil {
		st.end(prev)
		return nil, err
	}
	if plan.Order == results.OrderRandomized && prev.Order == results.OrderRandomized {
		plan = plan.WithSeed(prev.Seed)
	}
	done := 0
	for _, v := range prev.Variants {
		done += len(v.Reps)
	}
	fmt.Fprintf(stderr, "kaeload: resuming %s: %d windows measured before are kept\n", f.resumeDir, done)
	return &runInput{plan: plan, st: st, prev: prev}, nil
}

// resumePlan is the scenario compiled again when given, else the stored plan.
func (f *runFlags) resumePlan(prev *results.Run) (*plans.Plan, error) {
	if f.path != "" {
		return compile(f.path, f.sets, f.thresholds, false)
	}
	if len(f.sets) > 0 || len(f.thresholds) > 0 {
		return nil, usageError(fmt.Errorf("run --resume: --set and --threshold need the scenario file (the stored plan is used as it ran)"))
	}
	plan := &plans.Plan{}
	if err := json.Unmarshal(prev.Plan, plan); err != nil {
		return nil, fmt.Errorf("resume: the stored plan does not read: %w", err)
	}
	for _, v := range plan.Variants {
		if len(v.SecretEnv) > 0 {
			return nil, usageError(fmt.Errorf("run --resume: variant %s has secret env values, which the stored plan hides: give the scenario file too (kaeload run --resume DIR SCENARIO.yaml)", v.Name))
		}
	}
	return plan, nil
}

// finishStore closes the journal and returns the run directory kept, if any.
func finishStore(in *runInput, r *results.Run, runErr error, stderr io.Writer) (string, error) {
	switch {
	case in.st == nil:
		return "", runErr
	case r == nil:
		if in.prev != nil { // a resumed run that could not start: the journal closes as it was
			_, _ = in.st.end(in.prev)
		}
		return "", runErr
	}
	dir, err := in.st.end(r)
	if err != nil {
		return "", errors.Join(runErr, fmt.Errorf("write results: %w", err))
	}
	if in.prev == nil && dir != "" && len(r.Variants) == 0 {
		// No window, partial ones included: a wrong port, a server that
		// never started; what went wrong is on stderr already.
		if err := os.RemoveAll(dir); err != nil {
			return dir, errors.Join(runErr, fmt.Errorf("remove the empty run directory: %w", err))
		}
		fmt.Fprintf(stderr, "kaeload: no window was measured, so no run directory is kept (%s removed)\n", dir)
		return "", runErr
	}
	return dir, runErr
}

// runOutcome turns the run's analysis (nil: nothing ran) into its exit status.
func runOutcome(ctx context.Context, m *analysis.Report, runErr error) error {
	if runErr != nil || m == nil {
		return interrupted(ctx, runErr)
	}
	var failures []string
	if failed := m.Failed; len(failed) > 0 {
		failures = append(failures, fmt.Sprintf("%s: no request succeeded in a window, or errors were above max_errors (see the report)", strings.Join(failed, ", ")))
	}
	for _, l := range m.NotMeasured.Strings() {
		failures = append(failures, "not measured: "+l)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%w: %s", errFailed, strings.Join(failures, "; "))
	}
	if lines := m.Crossed.Strings(); len(lines) > 0 {
		return fmt.Errorf("%w: %s", errThreshold, strings.Join(lines, "; "))
	}
	return nil
}

// renderer writes one format of a run's analysis.
type renderer = func(io.Writer, *analysis.Report) error

// printWarnings prints the plan's warnings to stderr before it runs.
func printWarnings(stderr io.Writer, plan *plans.Plan) {
	for _, w := range plan.Warnings {
		fmt.Fprintf(stderr, "kaeload: warning: %s\n", w)
	}
}

// interrupted marks err errInterrupted (exit status 130) when ctx was cancelled.
func interrupted(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %v", errInterrupted, err)
	}
	return err
}
