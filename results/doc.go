// Package results is the run record: what a kaeload run measured, as
// run.json stores it, with exact merging and the vocabulary every layer
// shares (threshold metrics, orders, search objectives, capacity spec).
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
// (Group.Rate) uses its own window. The analysis says how evenly the groups
// performed (analysis.GroupSpread).
//
// # Failures
//
// A request that fails is data: Errors counts it by class (ports, for a
// client out of ephemeral ports, is the client's fault, not the server's).
// A response with status 400 or above is a complete response but never a
// success: rates count Succeeded. Requests still unanswered when the
// window ends and the drain is over are Outside.Unanswered, by stage.
// analysis.CheckRep marks a repetition Failed when its window had no success or
// its error share exceeded the run's max_errors; every rendering shows it.
//
// # Measurement types: one rule
//
// The plan arrives already encoded (Run.Plan). It is the vocabulary of what a run stores, so a
// package that measures something stored in a run returns this package's
// type for it, never a copy to be converted field by field: cpustat
// returns CPUUsage, speed.Result is SpeedResult, the engine returns Group.
// Types that only drive the measurement (cpustat's samples, ports.Limits)
// stay in their own packages.
//
// # Layer rule
//
// results is the bottom of the chain that turns a run into answers:
//
//	results (record) -> results/format -> results/analysis -> results/tables -> results/render, results/htmlreport
//
// with results/stats (statistics) beside the record and results/rundir
// (journal, run directory) on the record alone, its analysis and
// renderers injected. This package imports only results/stats (the type
// of Run.Calibration); it analyses, formats and renders nothing: a
// derived figure of one window that the controller needs while it
// measures (Group.Rate, Rep.ClientCPU, Rep.GroupCPUs, SearchScore) is
// here, every conclusion over a run is in results/analysis.
// TestLayers (layers_test.go) enforces the graph of the whole module.
package results
