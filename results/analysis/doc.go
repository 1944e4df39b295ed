// Package analysis computes, once, everything a kaeload run concludes:
// the Report that every output renders (Analyze), and the RunsReport of
// stored runs compared (AnalyzeRuns).
//
// # Statistics
//
// The statistics live in results/stats (pure functions of numbers,
// importing nothing of kaeload's); the analysis calls them. The samples are the repetitions' total rates (Variant.Rates). Summarize
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
// sweep (SweepSummary) over the swept keys whose value differs between
// them: ordered by value when there is one such key and its values are
// numbers ("33%" is one), in run order otherwise; the best marked only when it is significantly faster than every
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
// client-bound (ClientBound): the figure then measures kaeload, not
// the server. Every report says so loudly; Annotate stores the
// warnings in Run.Warnings for run.json. The CPUs' busy time alone never
// does: a busy loop at nice 19 keeps them 100 % busy and takes only what
// kaeload leaves. When other processes take at least OtherLoadShare of a
// group's CPUs, every report says so separately (OtherLoad, "OTHER
// LOAD"), naming the busiest of them (Group.Others) and how long
// kaeload's threads waited for a CPU (Group.Wait). Rep.SlotMemory is what
// a connection slot costs the client: the workers' private memory grown
// over their idle size, less SlotMemoryBase, "n/a" when the slots are too
// few to tell from it. Server CPU
// (Rep.ServerCPU) gives requests per server CPU-second, which is what an
// offload saves.
//
// The server's CPUs are watched like the client's (Rep.ServerCPUs,
// Rep.ServerCPUUse): the CPUs its processes may run on, their busy time
// less the server's own, kaeload's and the interrupts' is what other
// processes took; at least results.ServerOtherLoadShare of it is OTHER
// LOAD on the server (ServerOtherLoadLine), naming the busiest. A pinned
// client group on one of those CPUs is "client and server share CPU 0"
// (SharedCPUsLine) and no longer the client's OTHER LOAD naming the
// server. Either makes the repetition's server CPUs shared
// (VariantSummary.ServerSharedReps, ServerShared,
// ServerSharedInMost), for the verdicts to say so. A closed-loop
// repetition whose server CPUs were under results.ServerSaturatedBusy,
// as were its busiest group's CPUs, with no client-bound group, none
// with OTHER LOAD, no probe that moved (an accelerator at
// work) and Little's law holding (connections / mean latency ≈ rate) is
// NOT SATURATED (RepSaturation, NotSaturatedLine): the rate measured the
// connections in flight, not the server. The threshold
// server_saturated reads it; no profile is needed.
//
// # Analysis: one Report, computed once
//
// Analyze computes a run's Report once: the run summary (variants,
// comparisons, verdicts, sweeps, drift), the search and capacity answers,
// the threshold checks, the failed and not-measured variants, every
// warning, the hints, the crypto speed table, and each repetition's
// timeline analysis (RepReport.Timeline, from results/diagnosis: rate
// range, stalls, the hosts' TCP counters over the window, diagnoses,
// gathered in Report.Diagnoses; the thresholds listen_overflows, stalls
// and diagnoses read them). AnalyzeRuns does the same
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
// # Kernel events
//
// KernelEvents lists where, on a repetition's timeline, a kernel TCP
// trouble counter grew (RepReport.Events; report.html marks each). The
// counters that mean a lost, refused or retransmitted connection, a full
// queue or an overflowing TIME_WAIT table are events whenever they grow;
// resets and aborts on data or close only in an interval where the host
// reset at least half the connections it opened, since a healthy TLS
// short-connection run grows them in every interval.
//
// # Layer rule
//
// analysis imports the record (results), the statistics (results/stats),
// the formatters (results/format, for the numbers in its sentences) and
// the timeline's diagnosis (results/diagnosis); nothing above it. It writes no output: its answers are fields of the
// Report and sentences (warnings, hints, per-repetition lines) that every
// renderer shows as they are. CheckRep is the controller's verdict on a
// window (runner calls it); Annotate puts the warnings into Run.Warnings
// for run.json (the run directory gets it injected).
package analysis
