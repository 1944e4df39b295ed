// Package runner executes a compiled plan: server control, one pinned worker
// process per group, the window, probes, and the search and capacity drivers.
// Its schedule, protocol and failure rules are in docs/internals.md.
package runner
