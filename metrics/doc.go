// Package metrics serves a run live to Prometheus (kaeload run --metrics
// ADDR) and writes a stored run's timeline as OpenMetrics (kaeload report
// --format openmetrics), under the same names.
//
// A Server is the runner's Observer: the controller hands it the same
// interval readings that fill the timeline and run.json, and it publishes
// them at interval boundaries only: when every group has reported an
// interval, the whole interval (with the server's CPU and the TCP counters
// read at its boundaries) becomes visible at once, and a scrape reads one
// consistent snapshot, never half of an interval. Workers and the engine
// never touch it; publishing swaps one pointer, and a scrape that stalls
// or disconnects holds nothing the run needs.
//
// Exactness: every series a window will have exists at 0 before its load
// (the plan's windows from the start, a search's or capacity step's when
// its driver picks it), a window's values never change after its end, and
// the run's end keeps the final values until a Prometheus scrape that
// began after them has been served, or the linger has passed. The run's
// record (results.Metrics) says, per window and for the end, when the
// first scrape after the final values began, or that none did.
//
// The metric names are stable (README "Live metrics" lists them); label
// values come from bounded sets only: the run, variant names, repetition
// indexes, phases, group indexes, results, error classes, sides, host
// names of the scenario, diagnosis rules and quantiles. No URL, error
// text or environment value is a label.
package metrics
