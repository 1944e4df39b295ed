package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

func runCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var sets setFlags
	fs := newFlagSet("run", "[flags] SCENARIO.yaml | URL", `
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
An unwritable place fails before any load is sent.

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
--print-scenario prints it, so a quick test grows into a file. -c and -t
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
"kae vs baseline >= +30%". A crossed one is marked THRESHOLD CROSSED in
every report and makes the exit status 99.

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
       third exits at once.`, stdout)
	fs.Var(&sets, "set", "override a scenario field, e.g. --set load.duration=30s (repeatable)")
	dryRun := fs.Bool("dry-run", false, "print the compiled plan (groups, CPU sets, variants) and exit without sending load")
	out := fs.String("o", "", "write the run to this new directory (default: runs/<UTC time>-<scenario name>, see --results)")
	fs.StringVar(out, "out", "", "same as -o")
	resultsDir := fs.String("results", "runs", "parent directory of run directories (created if missing)")
	noSave := fs.Bool("no-save", false, "do not write a run directory")
	progress := fs.String("progress", "auto", "progress display: auto (bars on a terminal, status lines otherwise), on (bars), plain (status lines), off")
	seed := fs.String("seed", "", "seed of the randomized order, to replay a run's order (same as --set seed=N; a run prints and stores its seed)")
	var thresholds stringsFlag
	fs.Var(&thresholds, "threshold", `a pass/fail criterion per variant, e.g. "p99 handshake < 20ms" (repeatable; added to the scenario's thresholds)`)
	format := fs.String("format", "text", "report on standard output: text, json (a summary; the text report goes to standard error) or md")
	resumeDir := fs.String("resume", "", "continue the interrupted run in this run directory from its journal (its stored plan, or the scenario file given)")
	var ol oneLine
	ol.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	resuming := *resumeDir != ""
	switch {
	case resuming && (len(pos) > 1 || *dryRun || *out != "" || *noSave || *seed != "" || len(pos) == 1 && isURL(pos[0])):
		return usageError(fmt.Errorf("run --resume DIR: takes at most the scenario file, and no URL, --dry-run, -o, --no-save or --seed"))
	case !resuming && len(pos) != 1:
		return usageError(fmt.Errorf("run: want one scenario file or URL, got %d arguments (see kaeload run --help)", len(pos)))
	}
	urlMode := len(pos) == 1 && isURL(pos[0])
	if !urlMode {
		var urlOnly []string
		fs.Visit(func(f *flag.Flag) {
			if oneLineFlags[f.Name] {
				urlOnly = append(urlOnly, "-"+f.Name)
			}
		})
		if len(urlOnly) > 0 {
			return usageError(fmt.Errorf("run: %s: only with a URL instead of a scenario file (set a file's fields with --set)", strings.Join(urlOnly, ", ")))
		}
	}
	if *seed != "" {
		if _, err := strconv.ParseUint(*seed, 10, 64); err != nil {
			return usageError(fmt.Errorf("run: --seed %q: want a whole number from 0 to %d (a run prints and stores its seed)", *seed, uint64(math.MaxUint64)))
		}
		sets = append(sets, [2]string{"seed", *seed})
	}
	switch *progress {
	case "auto", "on", "plain", "off":
	default:
		return usageError(fmt.Errorf("run: --progress %q: want auto, on, plain or off", *progress))
	}
	report := map[string]func(io.Writer, *results.Report) error{"text": results.WriteText, "json": results.WriteSummaryJSON, "md": results.WriteMarkdown}[*format]
	if report == nil {
		return usageError(fmt.Errorf("run: --format %q: want text, json or md", *format))
	}
	var plan *plans.Plan
	var scenarioText string
	var st *store
	var prev *results.Run // the run so far, when resuming
	if resuming {
		if st, prev, err = resumeStore(*resumeDir); err != nil {
			return err
		}
		path := ""
		if len(pos) == 1 {
			path = pos[0]
		}
		if plan, err = resumePlan(prev, path, sets, thresholds); err != nil {
			st.end(prev)
			return err
		}
		done := 0
		for _, v := range prev.Variants {
			done += len(v.Reps)
		}
		fmt.Fprintf(stderr, "kaeload: resuming %s: %d windows measured before are kept\n", *resumeDir, done)
	} else if urlMode {
		plan, scenarioText, err = compileOneLine(&ol, pos[0], sets, thresholds, *dryRun || ol.print)
		if ol.print && scenarioText != "" && (err == nil || !errors.Is(err, errUsage)) {
			// The scenario is printed even when it does not compile here
			// (a CPU this machine lacks): it may be meant for another.
			fmt.Fprint(stdout, scenarioText)
			return err
		}
	} else {
		plan, err = compileWith(pos[0], sets, thresholds, *dryRun)
	}
	if err != nil {
		return err
	}
	if *dryRun {
		scenarios.Describe(stdout, plan) // warnings included
		if l := runner.SearchPlan(plan); l != "" {
			fmt.Fprintln(stdout, l)
		}
		return nil
	}
	for _, w := range plan.Warnings {
		fmt.Fprintf(stderr, "kaeload: warning: %s\n", w)
	}
	log := io.Writer(stderr)
	opts := runner.Options{Progress: stderr, ProgressMode: *progress, Abort: abortOf(ctx), Resume: prev}
	if !*noSave && st == nil {
		if st, err = newStore(*out, *resultsDir, pos[0]); err != nil {
			return err
		}
	}
	if st != nil {
		st.redact = plan.Redact
		st.scenarioText = scenarioText
		st.thresholds = plan.Thresholds
		log = io.MultiWriter(stderr, st.log)
		opts.Recorder = st
	}
	// Server command output and worker lines may hold a secret env value.
	rlog := newRedactWriter(log, plan.Secrets, plan.Redact)
	opts.Log = rlog
	r, runErr := runner.Run(ctx, plan, opts)
	if rw, ok := rlog.(*redactWriter); ok {
		rw.flush()
	}
	if st != nil && r == nil && prev != nil {
		// A resumed run that could not start: its journal is closed as it
		// was, nothing written.
		_, _ = st.end(prev)
	}
	if st != nil && r != nil {
		// The journal holds every finished repetition already; its end
		// record says whether the run completed.
		if dir, err := st.end(r); err != nil {
			runErr = errors.Join(runErr, fmt.Errorf("write results: %w", err))
		} else if dir != "" {
			defer fmt.Fprintf(stderr, "kaeload: results written to %s\n", dir)
		}
	}
	var m *results.Report // the analysis, computed once for every rendering below
	if r != nil {
		r.Thresholds = plan.Thresholds
		m = results.Analyze(r)
		// What was measured is shown even when the run failed, was
		// interrupted or could not be stored. With a machine-readable
		// format on stdout, people read the text on stderr.
		if *format != "text" {
			if err := results.WriteText(stderr, m); err != nil {
				runErr = errors.Join(runErr, err)
			}
		}
		if err := report(stdout, m); err != nil {
			runErr = errors.Join(runErr, err)
		}
	}
	if runErr != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %v", errInterrupted, runErr)
	}
	if runErr == nil && r != nil {
		var failures []string
		if failed := m.Failed; len(failed) > 0 {
			failures = append(failures, fmt.Sprintf("%s: no request succeeded in a window, or errors were above max_errors (see the report)", strings.Join(failed, ", ")))
		}
		for _, l := range m.NotMeasured {
			failures = append(failures, "not measured: "+l)
		}
		if len(failures) > 0 {
			return fmt.Errorf("%w: %s", errFailed, strings.Join(failures, "; "))
		}
		if err := thresholdError(m); err != nil {
			return err
		}
	}
	return runErr
}
