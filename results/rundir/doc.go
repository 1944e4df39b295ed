// Package rundir stores a run as a directory that grows as the run goes:
// its journal, run.json and the files rebuilt from it, written
// atomically.
//
// # Storage
//
// A run is stored as a directory that grows as the run goes (Journal):
// journal.ndjson gets one synced line per finished repetition, speed run
// and warning, and run.json, summary.csv, speed.csv (when speed commands
// ran) and report.html are rebuilt from it after each line, every file
// renamed into place so that no reader sees half of one. A run whose
// controller was killed keeps every repetition it finished: ReadRunFile
// reads a directory through its journal and marks such a run Incomplete.
// An existing run is never overwritten.
// DefaultDirName names a run directory "20261202T134500Z-nginx-kae";
// CheckWritable checks the results directory before any load is sent.
//
// # Layer rule
//
// rundir imports only the record (results). What it writes besides the
// journal and run.json is injected (JournalOptions: Annotate adds the
// analysis's warnings, Render returns summary.csv, speed.csv and
// report.html from one Report), as cmd/kaeload does, so storage never
// reaches up into the analysis or a renderer.
package rundir
