// Package runner executes a compiled plans.Plan: for every variant and
// repetition it starts one worker process per group, pinned to the group's
// CPUs from its first instruction (pinning.Start), drives them over a
// line-oriented protocol, shows progress, and assembles a results.Run. It
// also starts the built-in target when the plan asks for one, controls the
// server under test between variants when the plan has a Server section
// (through package server), and reads the variants' probes around every
// measured window.
//
// # Schedule
//
// The windows run in the order of Plan.Steps. With Order Randomized (the
// default) the run goes in randomized blocks: every round runs each
// variant once, in an order drawn afresh per round from Plan.Seed,
// restarting the server before every window (one window per start), so
// that slow drift of a shared machine and the position within a round
// land on every variant alike and average out instead of reading as a
// difference. Order Interleaved is the same with every round in plan
// order, A B C, A B C, …. With Order Sequential each variant gets one
// server start and all its repetitions, for servers whose restart is
// costly; drift is then not controlled and the report says so:
//
//	stop (clear whatever runs; a failure is only logged) → start with the
//	variant's env → wait until ready → [cooldown] warm-up + window → … ×
//	repeat → stop → next variant
//
// A Plan.Search runs after those steps: the driver of package search
// names each window's grid point from the windows finished so far (their
// scores under the search's objective, results.SearchScore), and the
// window is one session of that point's variant, the server restarted
// with its env; the run records it like any repetition and appends a
// results.Visit to Run.Search. The search ends when the driver is done
// (budget spent, or nothing left to learn). A coarse pass with several
// local bests, or a budget that allowed no refinement, is a warning.
// Options.Resume continues a run from the run so far (its journal): steps
// already measured are skipped and the search continues from its visits,
// so an interrupted search is not started over.
//
// With Plan.Auto (repeat: auto) Run first calls Calibrate: the baseline
// runs Auto.Calibrate windows, not recorded, and their noise sets the
// repetitions per variant (stats.RepsFor), at most Auto.Max; the
// run's Calibration records it. Cooldown
// is a pause without load between consecutive measured windows: the next
// load (its warm-up) starts no earlier than Cooldown after the previous
// window ended. The ready check defaults to the target's address (and URL
// for https). A variant without a start command is not started or stopped:
// its reload command runs when it has one, then the ready check.
//
// Every command's line and output go to Options.Log, the run log. A start
// (or reload) that fails or never becomes ready gives up on the variant
// within the ready timeout: the log gets the command, its exit status and
// its last output lines (*server.CommandError), or the ready probe's last
// error; the run's NotMeasured gets the variant and one line — the
// command's first line of output, such as nginx's "[emerg] cannot load
// certificate …", or why it never became ready — and the Recorder gets it
// too; the variant's later sessions are skipped and the other variants
// run. A start command that fails within one ready interval after the
// probe was answered, or while a window runs (something else answered: an
// old server still shutting down), counts the same, and that window is
// discarded. Nothing started is left running.
//
// Without server control (and without the built-in target), the target is
// checked before each session's load: when three connections within a
// second are all refused, nothing listens there and Run fails at once
// without sending load. Targets loaded only from remote hosts are not
// checked from here.
//
// # Teardown
//
// The stop command runs after every start: after the session's last
// window, on any error, and when ctx is cancelled (the CLI cancels it on the
// first Ctrl-C or SIGTERM). Then it runs with a fresh context bounded by
// Server.CommandTimeout (plus time to end a start command still in the
// foreground), and Run returns the repetitions completed so far with
// Interrupted set and an error wrapping ctx.Err(). After a failed start the
// stop command's own failure (usually: nothing to stop) is only logged.
//
// # Probes
//
// Each variant's probes are read by a goroutine beside the load: at the
// window's start (after the warm-up) and at its end, in the order listed,
// each bounded by Server.CommandTimeout. Rep.Probes[name] holds the two
// readings; a probe whose command fails or prints no number is recorded
// with its Error (readings 0) and noted in the run log — it does not fail
// the run. Probes run locally, with the variant's env, also without a
// Server section.
//
// # Workers
//
// The controller re-executes its own binary as the hidden `kaeload worker`
// subcommand, whose body is Worker. A worker checks that every one of its
// threads may run on exactly its group's CPUs (and fails with a clear
// message otherwise), sets GOMAXPROCS to the group's thread count, and runs
// one engine.Engine. Workers run in their own process group, so Ctrl-C
// reaches only the controller, which stops them by closing their input. On
// Linux they also get SIGKILL when the controller dies (Pdeathsig).
//
// Over the window each worker measures its group's CPUs (busy with
// anything), its own CPU time (getrusage: what decides client-bound), how
// long its threads waited for a CPU (schedstat run delay) and, pinned,
// which other processes that may run on its CPUs used the most CPU (one
// /proc pass at each end, leaving out the run's workers on its host,
// which start lists). It reads its private memory when ready, before its
// engine allocates a slot, and on every snapshot: the highest reading
// against the first is what its slots cost (results.Rep.SlotMemory).
//
// # Protocol
//
// Newline-delimited JSON, one object per line, each with a "type". The
// worker's stdout carries nothing else (logs go to stderr, which the
// controller keeps: the last 20 lines appear in a worker's error), so the
// same stream works unchanged through `ssh host kaeload worker`.
//
// Controller → worker (stdin):
//
//	{"type":"spec","group":1,"target":<plans.Target>,"load":<plans.Load>,"group_spec":<plans.Group>}
//	{"type":"clock"}                                                  remote workers only, before start
//	{"type":"start","warmup_end":"2025-01-02T15:04:05.2Z","end":"2025-01-02T15:05:05.2Z"}
//	{"type":"start",…,"warmup_in":700000000,"end_in":1700000000}       remote: relative to receipt (ns)
//	{"type":"start",…,"workers":[4242,4243]}                          the run's workers on that host
//
// Worker → controller (stdout):
//
//	{"type":"ready","pid":4242,"cpus":"10-19","gomaxprocs":10}
//	{"type":"clock","time":"2025-01-02T15:04:04.9Z"}                  answer to clock
//	{"type":"snapshot","requests":12345,"errors":0,"bytes":9876543}   every 250 ms from start
//	{"type":"intervals","intervals":[<results.IntervalSample>…]}      the timeline's closed intervals
//	{"type":"final","group":<results.Group with encoded histograms>}
//	{"type":"error","message":"group 1: …"}                           instead, on failure
//
// The sequence is spec → ready → start → snapshot… → final, intervals
// messages among the snapshots. The controller
// sends start only when every worker is ready, with the same window to
// all: the load begins when a worker reads start, warm-up traffic runs
// until warmup_end (not counted), and a request counts when it completes in
// [warmup_end, end). warmup_end lies at least 200 ms plus the warm-up in
// the future, so every group is loading before the window opens. (Groups
// on other hosts get it relative to receipt instead; see Remote hosts.)
// Snapshots carry the window's running counts and are the heartbeat.
//
// # Timeline
//
// With plans.Load.Interval set (Compile always sets it), a repetition
// also gets a timeline (results.Timeline): its warm-up and window in
// intervals anchored at the window's start. Each worker closes its
// group's intervals off the request loop (engine.TakeIntervals: requests
// counted by the window's rule, errors by class, requests started, the
// handshake and total histograms) and adds its own CPU and its CPUs' busy
// time read at the same boundaries; after every snapshot it sends the
// intervals that have ended and whose readings are in, each once, in an
// intervals message, and the rest before its final record. The controller
// merges them exactly (results.TimelineBuilder: counts added, histograms
// merged, so the total's percentiles are of all requests) and reads, at
// the same boundaries of its own clock, the server's CPU (as it reads it
// over the window) and the kernel TCP counters of every host: its own
// network namespace when a group runs here, each ssh host's that runs
// groups, and the server's (the built-in target's is this process's, a
// local server's that of its process, a remote one's over its host's
// ssh connection). Sources in one namespace are read once and recorded
// once as one host with both roles (results.TCPHost.Shared): client and
// server on one machine count each connection once. Its first readings
// are taken before start is sent, so the first interval holds all of
// the load.
//
// The worker exits after its final record, and also when its stdin closes
// at any point — that is how it learns the controller stopped the run or
// died. Any other line after start is a protocol error.
//
// # Remote hosts
//
// A group with a Host runs through that host's ssh master connection
// (package remote, opened once per run by Run, closed at its end) as
// `kaeload worker --relay`, whose body is Relay: it reads the spec, starts
// the plain worker pinned to the group's CPUs with pinning.Start, exactly
// as the controller does locally, and passes the stream through, so the
// protocol is the same. Options.Env is written out on the remote command
// line. Run first installs the binary each host needs (this executable, or
// the plan's Binaries entry for the host's platform; an error naming the
// host, its platform and the build command when there is none).
//
// Between ready and start the controller sends each remote worker five
// clock messages; the exchange with the shortest round trip gives the
// host's clock offset (remote time − midpoint), uncertain by half that
// round trip. start then carries the window relative to receipt
// (warmup_in, end_in), less half the round trip, and the worker's final
// window is translated back into the controller's clock. A host whose
// uncertainty exceeds 1 % of the window gets a warning. Offsets are kept
// per group (results.Group.ClockOffset) and per host (results.Run.Hosts).
//
// A remote worker that sends nothing for 9 s fails (its CPU cannot be read
// from here). When the ssh connection drops, the session's stream ends and
// the error names the host, the group and why the connection ended; on
// the host, the relay sees its input end, closes the worker's input and
// kills it a second later, and the worker dies with the relay
// (Pdeathsig), so no orphan keeps loading the server. The server's
// commands go over the server host's connection, and so does its CPU:
// the process tree listening on the target's port there (found from
// /proc/net/tcp and /proc/*/fd, sampled from /proc/*/stat each session,
// cpustat.RemoteProcs), or the whole machine's /proc/stat when nothing
// listens there.
//
// # Failures
//
// A worker that exits early, sends an error, writes a line that is not a
// protocol message, or stays silent for 3 s after start without using any
// CPU meanwhile (a worker busy with thousands of slots may be slow to
// report; one that is silent and idle hangs) fails the run with a
// *WorkerError naming its group, CPUs and last stderr lines. Every other
// worker's stdin is then closed, and it is killed if it has not exited
// 1 s later (at once after Options.Abort); every worker process is waited
// for before Run returns. The repetitions finished before are kept: in the
// returned run and, already, in Options.Recorder.
//
// A repetition whose window completed no successful request, or whose
// error share exceeded the plan's MaxErrors, is not a run failure: it is
// marked Rep.Failed (results.CheckRep) and the run goes on.
//
// # Open loop and capacity
//
// A group with a Rate runs its engine open loop (engine.SetRate): the
// plan's rate, split by Compile, is the group's share. A plan with
// Load.Capacity runs no repetitions at one load: per variant (one server
// start each), the capacity driver (package capacity) picks the rate of
// each next window from the finished ones, and each window is measured
// exactly as a repetition is, with the rate split over the groups
// (plans.Load.SplitRate) and the search's window length. Each step is
// recorded as a repetition with Rep.Step (rate asked, phase, verdict), so
// the journal and run.json keep every step's histograms; Run.Capacity
// says how the search went. A step that misses the targets is data for
// the search, never a failed repetition; after one, the next step waits
// until the server's CPU is idle (at most 15 s), so that it does not
// measure the server working off the overload's queue.
//
// # Recording
//
// Options.Recorder gets the run's header before any load, then each
// finished repetition, speed run and warning as it happens (the CLI's
// results.Journal syncs each to disk). Variant env in the run comes from
// the redacted plan, so no secret value reaches it.
package runner
