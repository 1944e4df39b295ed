package main

import (
	"context"
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

// runUsage is the text of kaeload run --help.
const runUsage = `
Runs a scenario: for every variant and repetition, one worker process per
group — pinned to the group's CPUs like taskset — sends requests over one
common window (warm-up not counted). With connection: close every request
is a new TCP connection and a full TLS handshake; no session is resumed
unless target.tls.resumption is true. Prints per-group and total req/s
with the client's own CPU µs per request beside them, errors by class,
resumed handshakes, negotiated TLS parameters and latency percentiles,
then the comparison of variants.

Each run is kept in a new directory, runs/<UTC time>-<name>/ under the
current directory (or -o DIR; --results PARENT moves runs/): run.json
(everything, histograms included), summary.csv, report.html and run.log.
Measurements stay out of the source tree, whose results/ is a Go package.
An unwritable place fails before any load is sent; a run that measured no
window (a wrong port, a server that never started) keeps no directory.
Local server commands find the run directory in KAELOAD_RUN_DIR, for files
that belong to the run (examples/local-nginx keeps its nginx's logs there).

Examples:
  kaeload run examples/quickstart.yaml
  kaeload run nginx-kae.yaml --dry-run
  kaeload run nginx-kae.yaml --set load.duration=30s --set repeat=5
  kaeload run https://10.0.0.2/index.html -c 200 -d 60s -t 11 --cpus 0-9,10-19
  kaeload run https://10.0.0.2/ --groups 11 --cpus-per-group 10 -c 200 --print-scenario > kae.yaml

URL mode: with a URL instead of a file, the flags marked "URL mode" below
write a scenario — one target, one variant, the server managed outside
kaeload — and that scenario is compiled and run exactly as a file holding
it would be (pinning, full handshakes, counting, the run directory).
--print-scenario prints it (only when it compiles), so a quick test grows
into a file. -d and --warmup take a duration (60s, 2m) or, as wrk's -d
does, a number of seconds (60). A run of one window ends its text report
with wrk's "Requests/sec:" line, for scripts written for wrk. -c and -t
are per group; --cpus makes one group per CPU list; --groups N
--cpus-per-group M makes N groups of M consecutive CPUs. --set, --threshold
and the other flags apply as to a file. A problem names the flag that set
the value: "--cpus 0-9,10-19: CPU 2-9 do not exist (this machine has 0-1)".

Order and statistics: by default the windows run in randomized blocks —
every round runs each variant once, in a random order per round (the seed
is printed and stored; --seed replays it), restarting the server before
each window — so that slow drift of the machine averages out instead of
reading as a difference (order: sequential keeps one start per variant,
and the report then says drift is not controlled). The comparison tests
ln(req/s) with a t-test per variant against the baseline, adjusts the
p-values over all the run's comparisons (Holm), and gives each one its
minimum detectable effect (80 % power) and, when not significant, an
equivalence verdict against the scenario's margin (equivalence: 2%).
"kaeload plan-reps" says how many repetitions an effect needs.

Open loop and capacity: the loop is closed by default (each connection
starts its next request when the last ends). load.rate: 20000 starts new
connections at that rate instead (split over the groups by CPU share),
counts a start due while every connection slot is busy as missed (never
runs it late) and adds latency from the intended start; more than 1 %
missed is flagged CLIENT-BOUND, CPUS-TAKEN or SLOTS-EXHAUSTED. load.capacity:
{p99_handshake: 20ms} searches each variant's highest rate meeting the
targets (step up ×factor, then bisect), one short window per step, and
reports "capacity under 20 ms p99 handshake: baseline 41,000/s, kae
96,000/s (+134 %)". --dry-run shows the rates, the step bound and the
worst-case duration.

Several machines: a group (or load.layout.hosts, or the server section) may
name host: ssh://[user@]host[:port] or an ssh config name. kaeload opens one
ssh connection per host (BatchMode, your ssh config, ssh_options), uploads
this build to ~/.cache/kaeload/<sha256>/ on hosts that lack it (binaries:
{linux/arm64: PATH} for other platforms), runs the remote groups pinned
there, sends one window to all hosts relative to receipt after measuring
each host's clock offset, and runs remote server commands with the
variant's env written out. See README "Several machines".

Every finished repetition is appended to the run directory's journal
(journal.ndjson, synced to disk) and run.json, summary.csv and report.html
are rebuilt from it, so a run that is killed keeps what it measured:
"kaeload report DIR" shows it, marked incomplete.

A variant with search: instead of sweep: measures only the values a search
picks (coarse pass, golden section, repetitions where values are within
noise), up to its budget, after the other variants; the report gives the
best value with its 95 % CI, the plateau and the windows used against the
full grid. --resume DIR continues an interrupted run or search from the run
directory's journal, keeping every finished window:
  kaeload run --resume runs/20261203T070000Z-soft-search
  kaeload run --resume DIR SCENARIO.yaml   (needed when env values are secret)

A repetition fails when its window completed no successful request (a
server that is down, hangs, or answers only with errors) or when errors
exceed max_errors (default 1 % of the window's attempts); it is marked
FAILED in every report and the run goes on to the next one.

Thresholds — the scenario's thresholds: list and --threshold — are
checked for every variant once the run is done (a vs threshold for its
pair): "req/s >= 100000", "errors < 0.1%", "errors == 0",
"p99 handshake < 20ms", "client_bound == false",
"kae vs baseline >= +30%", "listen_overflows == 0", "stalls == 0",
"diagnoses == 0", "probe hpre_send per request >= 0.9" (a probe that
failed in any window crosses it). A crossed one is marked THRESHOLD CROSSED in
every report and makes the exit status 99.

Live metrics: --metrics ADDR (or the scenario's metrics: {listen: ADDR})
serves /metrics for Prometheus while the run goes on, OpenMetrics or the
text format, from the same interval readings that fill run.json: every
series exists at 0 before the load, values change at interval boundaries,
and the run's end keeps the final values until a Prometheus scrape has
read them (at most --metrics-linger). 127.0.0.1:0 picks a free port (it
is printed and stored in run.json). "kaeload dashboard" prints a Grafana
dashboard; README "Live metrics" lists the names.

--format json prints a summary as JSON on standard output (per variant:
req/s statistics, errors, latency percentiles, the comparison; the
threshold checks) and the text report on standard error; --format md
prints the Markdown report on standard output instead.

Exit status:
  0    every variant measured, none failed, no threshold crossed
  1    the run could not be done or stored (server command, worker, disk)
  2    bad scenario or flags
  3    the run completed but a variant failed (see FAILED in the report)
       or was not measured because its server did not start (NOT MEASURED;
       the run goes on with the other variants)
  99   the run completed but crossed a threshold (THRESHOLD CROSSED)
  130  interrupted: the first Ctrl-C stops the load, stops the server and
       reports what was measured; a second kills the workers at once (the
       server's stop command still runs, bounded by command_timeout); a
       third exits at once.`

// runFlags is the command line of kaeload run, parsed and checked.
type runFlags struct {
	sets       setFlags
	thresholds stringsFlag
	dryRun     bool
	out        string
	resultsDir string
	noSave     bool
	progress   string
	format     string
	resumeDir  string
	metrics    metricsFlags
	ol         oneLine
	// pos is the scenario file or URL (empty when resuming from the
	// stored plan alone).
	pos []string
	// report writes the report --format asks for.
	report func(io.Writer, *analysis.Report) error
}

func (f *runFlags) resuming() bool { return f.resumeDir != "" }
func (f *runFlags) urlMode() bool  { return len(f.pos) == 1 && isURL(f.pos[0]) }

// runInput is what a run starts from: its plan and, when resuming or
// saving, its store and the run so far.
type runInput struct {
	plan *plans.Plan
	// scenarioText is the scenario URL mode wrote (no file holds it).
	scenarioText string
	st           *store
	// prev is the run so far, when resuming.
	prev *results.Run
	// observer serves the run's live metrics; nil when off.
	observer runner.Observer
}

func runCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, err := parseRunFlags(args, stdout)
	if err != nil {
		return err
	}
	in, err := f.input(stdout, stderr)
	if err != nil || in == nil {
		return err
	}
	if f.dryRun {
		describePlan(ctx, stdout, in.plan)
		return nil
	}
	for _, w := range in.plan.Warnings {
		fmt.Fprintf(stderr, "kaeload: warning: %s\n", w)
	}
	obs, err := f.metrics.serve(in.plan, stderr)
	if err != nil {
		return err
	}
	if obs != nil {
		defer obs.Close()
		in.observer = obs
	}
	if !f.noSave && in.st == nil {
		if in.st, err = newStore(f.out, f.resultsDir, f.pos[0]); err != nil {
			return err
		}
	}
	r, runErr := execute(ctx, f.progress, in, stderr)
	dir, runErr := finishStore(in, r, runErr, stderr)
	var m *analysis.Report // the analysis, computed once for every rendering and the outcome
	if r != nil {
		r.Thresholds = in.plan.Thresholds
		m = analysis.Analyze(r)
		if err := writeReports(m, f.format, f.report, stdout, stderr); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	if dir != "" {
		defer fmt.Fprintf(stderr, "kaeload: results written to %s\n", dir)
	}
	return runOutcome(ctx, m, runErr)
}

// parseRunFlags parses run's command line and rejects what does not go
// together, naming the flag.
func parseRunFlags(args []string, stdout io.Writer) (*runFlags, error) {
	f := &runFlags{}
	fs := newFlagSet("run", "[flags] SCENARIO.yaml | URL", runUsage, stdout)
	fs.Var(&f.sets, "set", "override a scenario field, e.g. --set load.duration=30s (repeatable)")
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
	seed := fs.String("seed", "", "seed of the randomized order, to replay a run's order (same as --set seed=N; a run prints and stores its seed)")
	fs.Var(&f.thresholds, "threshold", `a pass/fail criterion per variant, e.g. "p99 handshake < 20ms" (repeatable; added to the scenario's thresholds)`)
	fs.StringVar(&f.format, "format", "text", "report on standard output: text, json (a summary; the text report goes to standard error) or md")
	fs.StringVar(&f.resumeDir, "resume", "", "continue the interrupted run in this run directory from its journal (its stored plan, or the scenario file given)")
	f.metrics.register(fs)
	f.ol.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	f.pos = pos
	switch {
	case f.resuming() && (len(pos) > 1 || f.dryRun || f.out != "" || f.noSave || *seed != "" || f.urlMode()):
		return nil, usageError(fmt.Errorf("run --resume DIR: takes at most the scenario file, and no URL, --dry-run, -o, --no-save or --seed"))
	case !f.resuming() && len(pos) != 1:
		return nil, usageError(fmt.Errorf("run: want one scenario file or URL, got %d arguments (see kaeload run --help)", len(pos)))
	}
	if !f.urlMode() {
		var urlOnly []string
		fs.Visit(func(fl *flag.Flag) {
			if oneLineFlags[fl.Name] {
				urlOnly = append(urlOnly, "-"+fl.Name)
			}
		})
		if len(urlOnly) > 0 {
			return nil, usageError(fmt.Errorf("run: %s: only with a URL instead of a scenario file (set a file's fields with --set)", strings.Join(urlOnly, ", ")))
		}
	}
	if *seed != "" {
		if _, err := strconv.ParseUint(*seed, 10, 64); err != nil {
			return nil, usageError(fmt.Errorf("run: --seed %q: want a whole number from 0 to %d (a run prints and stores its seed)", *seed, uint64(math.MaxUint64)))
		}
		f.sets = append(f.sets, [2]string{"seed", *seed})
	}
	switch f.progress {
	case "auto", "on", "plain", "off":
	default:
		return nil, usageError(fmt.Errorf("run: --progress %q: want auto, on, plain or off", f.progress))
	}
	f.report = map[string]func(io.Writer, *analysis.Report) error{"text": render.WriteText, "json": render.WriteSummaryJSON, "md": render.WriteMarkdown}[f.format]
	if f.report == nil {
		return nil, usageError(fmt.Errorf("run: --format %q: want text, json or md", f.format))
	}
	return f, nil
}

// input compiles the plan the flags name: a resumed run's (with its
// store), a URL mode scenario's, or a scenario file's. With
// --print-scenario it prints the URL mode scenario and returns a nil
// input.
func (f *runFlags) input(stdout, stderr io.Writer) (*runInput, error) {
	in := &runInput{}
	var err error
	switch {
	case f.resuming():
		return f.resumeInput(stderr)
	case f.urlMode():
		in.plan, in.scenarioText, err = compileOneLine(&f.ol, f.pos[0], f.sets, f.thresholds, f.dryRun || f.ol.print)
		if f.ol.print && err == nil {
			// Only a scenario that compiles is printed. It compiles as for
			// --dry-run, so CPUs this machine lacks do not stop it: it may
			// be meant for another machine.
			fmt.Fprint(stdout, in.scenarioText)
			return nil, nil
		}
	default:
		in.plan, err = compileWith(f.pos[0], f.sets, f.thresholds, f.dryRun)
	}
	if err != nil {
		return nil, err
	}
	return in, nil
}

// resumeInput reopens the run directory of --resume and compiles its
// plan (from the stored one, or the scenario file given).
func (f *runFlags) resumeInput(stderr io.Writer) (*runInput, error) {
	st, prev, err := resumeStore(f.resumeDir)
	if err != nil {
		return nil, err
	}
	path := ""
	if len(f.pos) == 1 {
		path = f.pos[0]
	}
	plan, err := resumePlan(prev, path, f.sets, f.thresholds)
	if err != nil {
		st.end(prev)
		return nil, err
	}
	done := 0
	for _, v := range prev.Variants {
		done += len(v.Reps)
	}
	fmt.Fprintf(stderr, "kaeload: resuming %s: %d windows measured before are kept\n", f.resumeDir, done)
	return &runInput{plan: plan, st: st, prev: prev}, nil
}

// describePlan is --dry-run: the plan (warnings included), what a
// search may cost and every probe read once.
func describePlan(ctx context.Context, stdout io.Writer, plan *plans.Plan) {
	scenarios.Describe(stdout, plan) // warnings included
	if l := runner.SearchPlan(plan); l != "" {
		fmt.Fprintln(stdout, l)
	}
	showProbes(ctx, stdout, plan)
}

// execute runs the plan, logging to stderr (and the store's run log),
// with secret env values hidden from both.
func execute(ctx context.Context, progress string, in *runInput, stderr io.Writer) (*results.Run, error) {
	log := io.Writer(stderr)
	opts := runner.Options{Progress: stderr, ProgressMode: progress, Abort: abortOf(ctx), Resume: in.prev, Observer: in.observer}
	if st := in.st; st != nil {
		st.redact = in.plan.Redact
		st.scenarioText = in.scenarioText
		st.thresholds = in.plan.Thresholds
		log = io.MultiWriter(stderr, st.log)
		opts.Recorder = st
	}
	// Server command output and worker lines may hold a secret env value.
	rlog := newRedactWriter(log, in.plan.Secrets, in.plan.Redact)
	opts.Log = rlog
	r, err := runner.Run(ctx, in.plan, opts)
	if rw, ok := rlog.(*redactWriter); ok {
		rw.flush()
	}
	return r, err
}

// finishStore closes the run directory's journal and returns the
// directory ("" when nothing was written). A new run that measured no
// window leaves no directory: it is removed, and stderr says so. The journal holds every
// finished repetition already; its end record says whether the run
// completed.
func finishStore(in *runInput, r *results.Run, runErr error, stderr io.Writer) (string, error) {
	st := in.st
	switch {
	case st == nil:
		return "", runErr
	case r == nil && in.prev != nil:
		// A resumed run that could not start: its journal is closed as
		// it was, nothing written.
		_, _ = st.end(in.prev)
		return "", runErr
	case r == nil:
		return "", runErr
	}
	dir, err := st.end(r)
	if err != nil {
		return "", errors.Join(runErr, fmt.Errorf("write results: %w", err))
	}
	if in.prev == nil && dir != "" && sentNoLoad(r) {
		// A wrong port, a server that never started: the directory would
		// hold only "no variants". What went wrong is on stderr already.
		if err := os.RemoveAll(dir); err != nil {
			return dir, errors.Join(runErr, fmt.Errorf("remove the empty run directory: %w", err))
		}
		fmt.Fprintf(stderr, "kaeload: no window was measured, so no run directory is kept (%s removed)\n", dir)
		return "", runErr
	}
	return dir, runErr
}

// sentNoLoad reports whether a run measured nothing: no variant has a
// window (a run's record keeps only the variants that have one). Its
// directory is not kept.
func sentNoLoad(r *results.Run) bool { return len(r.Variants) == 0 } // a variant with only a partial window counts: it measured something

// writeReports shows what was measured, even when the run failed, was
// interrupted or could not be stored. With a machine-readable format on
// stdout, people read the text on stderr.
func writeReports(m *analysis.Report, format string, report func(io.Writer, *analysis.Report) error, stdout, stderr io.Writer) error {
	var errs []error
	if format != "text" {
		errs = append(errs, render.WriteText(stderr, m))
	}
	return errors.Join(append(errs, report(stdout, m))...)
}

// runOutcome turns the run's analysis (nil when nothing ran) into the
// command's error, and so its exit status: interrupted, a variant failed
// or not measured, a threshold crossed, or the run's own error.
func runOutcome(ctx context.Context, m *analysis.Report, runErr error) error {
	if runErr != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %v", errInterrupted, runErr)
	}
	if runErr != nil || m == nil {
		return runErr
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
	return thresholdError(m)
}
