// Package runner executes a compiled plan: server control between variants,
// one pinned worker process per group driven over an NDJSON protocol, the
// window, probes, and the drivers of searches and capacity. Its schedule,
// protocol and failure rules are in docs/internals.md.
package runner
