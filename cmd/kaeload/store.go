package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/results/rundir"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// store is where one run is kept, checked before any load; its journal
// keeps every finished repetition before the next starts.
type store struct {
	dir     string // the run directory; "" = derive from the start time
	parent  string // where derived run directories go
	log     *runLog
	journal *rundir.Journal
	// logFile is a resumed run's log (its journal is open already),
	// attached when the run begins.
	logFile *os.File
}

// newStore checks that --out does not exist and its parent is writable.
func newStore(out, parent string) (*store, error) {
	s := &store{dir: out, parent: parent, log: &runLog{}}
	if out != "" {
		if _, err := os.Lstat(out); err == nil {
			return nil, fmt.Errorf("--out %s already exists: a stored run is never overwritten; choose a new directory", out)
		}
		s.parent = filepath.Dir(out)
	}
	if err := rundir.CheckWritable(s.parent); err != nil {
		return nil, fmt.Errorf("results cannot be written: %w", err)
	}
	return s, nil
}

// about is the run header's versions, host facts and scenario, secrets hidden.
func about(scenarioPath, scenarioText string, redact func(string) string) runner.About {
	a := runner.About{Kaeload: versionString(), GoVersion: runtime.Version()}
	if facts, err := cpustat.HostFacts(); err == nil {
		a.Host, _ = json.Marshal(facts)
	}
	if scenarioText == "" {
		text, _ := os.ReadFile(scenarioPath) // none: no text
		scenarioText = string(text)
	}
	if redact != nil {
		scenarioText = redact(scenarioText)
	}
	a.Scenario = scenarioText
	return a
}

// Start creates (or resumes) the run directory and moves the run log there.
func (s *store) Start(r *results.Run, _ *plans.Plan) ([]results.Change, error) {
	if err := s.begin(r); err != nil {
		return nil, fmt.Errorf("results cannot be written: %w", err)
	}
	return nil, nil
}

func (s *store) begin(r *results.Run) error {
	if f := s.logFile; f != nil { // resuming
		exportRunDir(s.dir)
		if err := s.journal.Resume(); err != nil {
			return err
		}
		s.logFile = nil
		if _, err := f.WriteString("--- resumed\n"); err != nil {
			f.Close()
			return err
		}
		return s.log.attach(f)
	}
	if s.dir == "" {
		s.dir = filepath.Join(s.parent, rundir.DefaultDirName(r.Started, r.Name))
	}
	j, err := rundir.CreateJournal(s.dir, r, dirOptions)
	if err != nil {
		return err
	}
	s.journal = j
	exportRunDir(s.dir)
	f, err := os.OpenFile(filepath.Join(s.dir, rundir.LogFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	return s.log.attach(f)
}

// Event records each change to the run in the journal.
func (s *store) Event(_ context.Context, e runner.Event) error {
	if e.Kind == runner.EventChange {
		return s.journal.Record(*e.Change)
	}
	return nil
}

// Stop adds nothing: the journal ends with end.
func (s *store) Stop(context.Context) []results.Change { return nil }

// dirOptions annotate run.json with the analysis's warnings and add dirFiles.
var dirOptions = rundir.JournalOptions{Annotate: analysis.Annotate, Render: dirFiles}

// dirFiles renders the files a run directory rebuilds after each record.
func dirFiles(r *results.Run) (map[string][]byte, error) {
	m := analysis.Analyze(r)
	files := map[string][]byte{}
	add := func(name string, write renderer) error { // a file that fails to render is left out
		var b bytes.Buffer
		err := write(&b, m)
		if err == nil {
			files[name] = b.Bytes()
		}
		return err
	}
	if len(r.Variants) > 0 || len(r.NotMeasured) > 0 {
		add(rundir.SummaryFile, render.WriteCSV)
	}
	if analysis.HasSpeed(r) {
		add(rundir.SpeedFile, render.WriteSpeedCSV)
	}
	if m.Profile != nil { // profile.csv and a pprof file per variant with a profile
		add(rundir.ProfileFile, render.WriteProfileCSV)
		for i := range m.Profile.Variants {
			if v := &m.Profile.Variants[i]; v.Available() {
				add(v.Pprof, func(w io.Writer, m *analysis.Report) error { return render.WriteProfilePprof(w, m, i) })
			}
		}
	}
	if err := add(rundir.ReportFile, htmlreport.Write); err != nil {
		return files, fmt.Errorf("%s: %w", rundir.ReportFile, err)
	}
	return files, nil
}

// readRun reads a stored run (a run.json or a run directory).
func readRun(path string) (*results.Run, error) { return rundir.ReadRunFile(path, dirOptions) }

// end closes the journal and returns the run directory ("": never began).
func (s *store) end(r *results.Run) (string, error) {
	if s.journal == nil {
		return "", nil
	}
	os.Unsetenv(RunDirEnv)
	finished := r.Finished
	if finished.IsZero() {
		finished = time.Now()
	}
	err := cmp.Or(s.journal.End(finished, r.Interrupted), s.log.close())
	if s.logFile != nil { // a resumed run that never began
		s.logFile.Close()
		s.logFile = nil
	}
	return s.dir, err
}

// runLog is the run log, written from several goroutines: kept in memory
// until the run directory exists, then appended to run.log.
type runLog struct {
	mu  sync.Mutex
	b   bytes.Buffer
	f   *os.File
	err error // the first write error to f; later lines are kept in b
}

func (l *runLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil && l.err == nil {
		if _, l.err = l.f.Write(p); l.err == nil {
			return len(p), nil
		}
	}
	return l.b.Write(p)
}

// attach moves the log to f; on failure f is closed.
func (l *runLog) attach(f *os.File) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := io.Copy(f, &l.b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", f.Name(), err)
	}
	l.f = f
	return nil
}

// close syncs and closes the log file; it reports a write that failed.
func (l *runLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := cmp.Or(l.f.Sync(), l.f.Close())
	l.f = nil
	if l.err != nil {
		return fmt.Errorf("run log: %w", l.err)
	}
	return err
}

// RunDirEnv holds the run directory's absolute path for local server
// commands (examples/local-nginx keeps its files there); unset with --no-save.
const RunDirEnv = "KAELOAD_RUN_DIR"

// exportRunDir sets RunDirEnv for the commands this process starts.
func exportRunDir(dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		os.Setenv(RunDirEnv, abs)
	}
}

// resumeStore reopens the run directory dir; nothing is written until the
// resumed run begins, so a resume that fails leaves it as it was.
func resumeStore(dir string) (*store, *results.Run, error) {
	j, prev, err := rundir.ResumeJournal(dir, dirOptions)
	if err != nil {
		return nil, nil, err
	}
	// What is logged before the run begins waits in memory.
	f, err := os.OpenFile(filepath.Join(dir, rundir.LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		j.End(prev.Finished, true) // closes it: nothing was written
		return nil, nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	return &store{dir: dir, log: &runLog{}, journal: j, logFile: f}, prev, nil
}
