// Package runner executes a compiled scenarios.Plan: for every variant and
// repetition it starts one worker process per group, pinned to the group's
// CPUs from its first instruction (pinning.Start), drives them over a
// line-oriented protocol, shows progress, and assembles a results.Run. It
// also starts the built-in target when the plan asks for one, and calls an
// optional Server hook around each variant (the seam for server commands).
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
// # Protocol
//
// Newline-delimited JSON, one object per line, each with a "type". The
// worker's stdout carries nothing else (logs go to stderr, which the
// controller keeps: the last 20 lines appear in a worker's error), so the
// same stream works unchanged through `ssh host kaeload worker`.
//
// Controller → worker (stdin):
//
//	{"type":"spec","group":1,"target":<scenarios.Target>,"load":<scenarios.Load>,"group_spec":<scenarios.Group>}
//	{"type":"start","warmup_end":"2025-01-02T15:04:05.2Z","end":"2025-01-02T15:05:05.2Z"}
//
// Worker → controller (stdout):
//
//	{"type":"ready","pid":4242,"cpus":"10-19","gomaxprocs":10}
//	{"type":"snapshot","requests":12345,"errors":0,"bytes":9876543}   every 250 ms from start
//	{"type":"final","group":<results.Group with encoded histograms>}
//	{"type":"error","message":"group 1: …"}                           instead, on failure
//
// The sequence is spec → ready → start → snapshot… → final. The controller
// sends start only when every worker is ready, with the same window to
// all: the load begins when a worker reads start, warm-up traffic runs
// until warmup_end (not counted), and a request counts when it completes in
// [warmup_end, end). warmup_end lies at least 200 ms plus the warm-up in
// the future, so every group is loading before the window opens. (Groups
// on other hosts need synchronised clocks: the window is wall-clock time.)
// Snapshots carry the window's running counts and are the heartbeat.
//
// The worker exits after its final record, and also when its stdin closes
// at any point — that is how it learns the controller stopped the run or
// died. Any other line after start is a protocol error.
//
// # Failures
//
// A worker that exits early, sends an error, writes a line that is not a
// protocol message, or stays silent for 3 s after start fails the run with
// a *WorkerError naming its group, CPUs and last stderr lines. Every other
// worker's stdin is then closed, and it is killed if it has not exited
// 1 s later; every worker process is waited for before Run returns.
package runner
