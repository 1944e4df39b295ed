// Package serverprof profiles the server with Linux perf during each window
// and turns perf's output into the record's types; where there can be no
// profile, its Reason says why. See docs/profiling.md.
package serverprof
