// Package rundir stores a run as a directory that grows as the run goes: a synced journal, and
// run.json and the reports rebuilt from it, written atomically. See docs/outputs.md.
package rundir
