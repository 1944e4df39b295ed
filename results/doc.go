// Package results holds what a kaeload run measured and turns it into
// answers: exact merging, rates, statistics over repetitions, comparison
// between variants and sweeps, storage, and the text, Markdown and CSV reports.
//
// # Data
//
// A worker group reports a Group: its planned Threads and connection
// Slots, Counts (requests, status classes, connections opened, handshakes,
// resumptions, negotiated parameters, Errors by class), four HDR latency
// Histograms (connect, handshake, TTFB, total) and the Window they cover. A Rep is one repetition of one variant: its groups
// and their Total. A Variant is one server configuration with its
// repetitions; a Run is every variant plus the encoded plan, warnings and
// whether it was interrupted. Run is the content of run.json (WriteJSON,
// ReadRun; SchemaVersion).
//
// # Merging and rates
//
// Merge adds counts and merges histograms bucket by bucket, so a total's
// percentiles are those of all its requests, never averages of per-group
// percentiles. The controller gives every group the same window; workers'
// clocks make the groups' windows differ by a few milliseconds at most. The
// total's window is their hull [earliest Start, latest End], and the total
// rate is total requests / hull length: every counted request lies inside
// it, so the total rate is never overstated. A group's own rate
// (Group.Rate) uses its own window. GroupSpread says how evenly the groups
// performed.
//
// # Statistics
//
// The statistics live in results/stats (pure functions of numbers,
// importing nothing of kaeload's); this package calls them. The samples are the repetitions' total rates (Variant.Rates). Summarize
// gives the mean, sample standard deviation (n-1) and the 95 % confidence
// interval of the geometric mean, taken on the log scale and
// exponentiated (never negative), from Student's t quantile
// (StudentTQuantile, computed here from the regularized incomplete beta
// function; no external dependency). Compare runs a two-sided t-test at
// Alpha between a variant and the baseline on the logarithm of the rates
// (Student's pooled test for samples of equal size, Welch's otherwise):
// throughput noise is proportional to the rate, so the log scale makes
// the variances of fast and slow variants comparable and tests the ratio
// that Δ % reports. With fewer than two repetitions on a side there is no
// interval and no test, and a rate with no logarithm (zero, negative, not
// finite) cannot be tested; the types say so explicitly (Stats.HasCI,
// TestNone, TestCannot, Comparison.MDENote) instead of carrying NaN or
// Inf, so every summary encodes to JSON. Spreads below rounding count as
// none. A verdict on fewer than three repetitions a side carries a
// caution (Comparison.Caution).
//
// # Summaries, sweeps, CPU and probes
//
// SummarizeRun computes, once for every format, what the run says across
// repetitions (RunSummary): per variant the Stats of its rates, the
// Comparison with the baseline — a t-test on ln(req/s), the run's
// comparisons judged as one family (CompareFamily: Holm-adjusted p, the
// minimum detectable effect at Power, and an equivalence verdict against
// the run's margin), the rates by round and their trend (DriftSummary), the
// repetitions' histograms merged exactly (p99 handshake time), errors,
// probe deltas (mean per window and per request, which tells whether an
// offload engine engaged: 1.0 hardware operations per request means every
// handshake was offloaded) and CPU. Variants with the same Series form a
// sweep (SweepSummary): ordered by value when the single swept key is
// numeric, the best marked only when it is significantly faster than every
// other value (PairPlateau: every pair of the sweep's values judged
// together, Holm-adjusted, so that identical values are called different
// in at most Alpha of runs whatever their number; a claim about the
// baseline also needs the baseline comparison's agreement), else its
// plateau.
//
// A run holds only the variants with a repetition, so its baseline may be
// missing: a randomized order drew another variant first and the journal
// rebuilds the files after that window, or the run was interrupted, or the
// baseline could not run. That is a state, not an error: the summary's
// Baseline is -1, every comparison's test is TestNoBaseline, and every
// format shows what was measured with RunSummary.NoComparison in place of
// the comparison.
//
// A run that searched a variable (Run.Search) holds the visited values as
// ordinary variants of one series and the windows in visit order
// (Visits, rebuilt from the journal's repetition records).
// SummarizeSearch gives the answer every report shows: the windows used
// against the full grid, the best value with the mean and 95 % CI of its
// score (SearchScore: req/s, requests per server CPU-second, or 1/p99
// handshake), and the plateau (SearchPlateau: every visited value not
// significantly worse than the best, the log-scale t-test Holm-adjusted
// over every pair of tested values; a value measured once is on none)
// with its lowest value.
//
// A group whose CPUs kaeload itself used at least ClientBoundBusy of
// (its workers' own CPU time and the interrupts on those CPUs,
// Rep.GroupCPUs; for runs recorded before
// workers measured themselves, the CPUs' busy time) makes its repetition
// client-bound (Rep.ClientBound): the figure then measures kaeload, not
// the server. Every report says so loudly; Run.Annotate stores the
// warnings in Run.Warnings for run.json. The CPUs' busy time alone never
// does: a busy loop at nice 19 keeps them 100 % busy and takes only what
// kaeload leaves. When other processes take at least OtherLoadShare of a
// group's CPUs, every report says so separately (Rep.OtherLoad, "OTHER
// LOAD"), naming the busiest of them (Group.Others) and how long
// kaeload's threads waited for a CPU (Group.Wait). Rep.SlotMemory is what
// a connection slot costs the client: the workers' private memory grown
// over their idle size, less SlotMemoryBase, "n/a" when the slots are too
// few to tell from it. Server CPU
// (Rep.ServerCPU) gives requests per server CPU-second, which is what an
// offload saves.
//
// # Analysis: one Report, computed once
//
// Analyze computes a run's Report once: the run summary (variants,
// comparisons, verdicts, sweeps, drift), the search and capacity answers,
// the threshold checks, the failed and not-measured variants, every
// warning, the hints and the crypto speed table. AnalyzeRuns does the same
// for stored runs compared with a reference (RunsReport). The rule: the
// renderers below take the Report and format it; they call no analysis
// function and no function of results/stats (TestRenderersComputeNothing
// parses them and fails when one does), so each analysis runs once per
// rendering pass and two outputs never disagree. Every answer of the
// Report is in every output, or the output says why it leaves it out
// (TestEveryAnswerInEveryOutput walks the Report's fields). Text and
// Markdown are two writers of one layout: a table is laid out once
// (title, header, rows) and written twice.
//
// # Rendering
//
// Each renderer takes a Report. WriteText writes the plain-text report
// for a terminal or CI log: per
// variant and repetition the totals, CPU, probe readings, latency
// percentiles in ms and a per-group table with the spread, then, when
// there is more than one variant or repetition, the comparison table, the
// probe deltas and every sweep as a table with an ASCII bar chart.
// WriteMarkdown writes the same tables as GitHub Markdown, WriteCSV one
// row per variant × repetition plus a statistics row per variant
// (summary.csv), WriteSummaryJSON the JSON summary, WriteSpeedCSV one row
// per crypto speed figure (speed.csv), and CompareRuns lines up the variants of several stored
// runs against the first ("did last week's kernel update change
// anything?").
//
// Every report renders numbers with the same formatters (FormatCount,
// FormatRate, FormatPercent, QuantileMillis, StatusLine and
// the others; Missing for an undefined value), so a figure reads the same
// in the terminal, in Markdown and in report.html.
//
// # Storage
//
// A run is stored as a directory that grows as the run goes (Journal):
// journal.ndjson gets one synced line per finished repetition, speed run
// and warning, and run.json, summary.csv, speed.csv (when speed commands
// ran) and report.html are rebuilt from it after each line, every file
// renamed into place so that no reader sees half of one. A run whose
// controller was killed keeps every repetition it finished: ReadRunFile
// reads a directory through its journal and marks such a run Incomplete.
// An existing run is never overwritten.
// DefaultDirName names a run directory "20261202T134500Z-nginx-kae";
// CheckWritable checks the results directory before any load is sent.
//
// # Failures
//
// A request that fails is data: Errors counts it by class (ports, for a
// client out of ephemeral ports, is the client's fault, not the server's).
// A response with status 400 or above is a complete response but never a
// success: rates count Succeeded. Requests still unanswered when the
// window ends and the drain is over are Outside.Unanswered, by stage.
// CheckRep marks a repetition Failed when its window had no success or
// its error share exceeded the run's max_errors; every rendering shows it.
//
// # Measurement types: one rule
//
// This package imports no other kaeload package: the plan arrives already
// encoded (Run.Plan). It is the vocabulary of what a run stores, so a
// package that measures something stored in a run returns this package's
// type for it, never a copy to be converted field by field: cpustat
// returns CPUUsage, speed.Result is SpeedResult, the engine returns Group.
// Types that only drive the measurement (cpustat's samples, ports.Limits)
// stay in their own packages.
package results
