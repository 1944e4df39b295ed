// Package serverprof profiles the server under test with Linux perf and
// turns what perf prints into the run record's types
// (results.ServerProfile): where the server's CPU went during a measured
// window, by library, by function and as folded call stacks.
//
// # One session per window
//
// Start runs a small shell script on the server's host (this machine, or
// an ssh host through the system ssh) that starts
//
//	perf record -e cpu-clock -F 499 -g -p PIDS -D -1 --control fifo:CTL,ACK
//
// attached to the server's processes with sampling off, and returns once
// perf has acknowledged a ping on its control FIFO: perf is attached, a
// state rather than a guess after a sleep. Enable turns sampling on when
// the window opens and Stop turns it off when it closes (each returns on
// perf's acknowledgement), stops perf with SIGINT and reads `perf script
// -F comm,pid,tid,ip,sym,dso` back as text, which ParseScript counts.
// cpu-clock samples a task only while it runs, so the number of samples
// is the server's CPU seconds × Rate.
//
// # Absence is a value
//
// A server that cannot be profiled does not fail the run: Start and Stop
// return a profile whose Reason says why ("perf not found", "not
// permitted: perf_event_paranoid=3 …", "server PIDs not found", "perf not
// found on HOST"), and every output shows "profile not available:
// REASON".
package serverprof
