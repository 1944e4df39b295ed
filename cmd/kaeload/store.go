package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/htmlreport"
)

// store is where one run is kept: it is checked before any load is sent,
// so an unwritable place fails the run at once rather than after an hour.
type store struct {
	dir    string // the run directory; "" = derive from the start time
	parent string // where derived run directories go
	log    *runLog
}

// newStore checks that the run can be written: --out must not exist yet
// (a run is never overwritten) and its parent must be writable.
func newStore(out, parent string) (*store, error) {
	s := &store{dir: out, parent: parent, log: &runLog{}}
	if out != "" {
		if _, err := os.Lstat(out); err == nil {
			return nil, fmt.Errorf("--out %s already exists: a stored run is never overwritten; choose a new directory", out)
		}
		s.parent = filepath.Dir(out)
	}
	if err := results.CheckWritable(s.parent); err != nil {
		return nil, fmt.Errorf("results cannot be written: %w", err)
	}
	return s, nil
}

// write completes r with what the controller knows (version, host,
// scenario text) and writes the run directory. It returns the directory.
func (s *store) write(r *results.Run, scenarioPath string) (string, error) {
	r.Kaeload = versionString()
	r.GoVersion = runtime.Version()
	if facts, err := cpustat.HostFacts(); err == nil {
		if b, err := json.Marshal(facts); err == nil {
			r.Host = b
		}
	}
	if text, err := os.ReadFile(scenarioPath); err == nil {
		r.Scenario = string(text)
	}
	dir := s.dir
	if dir == "" {
		dir = filepath.Join(s.parent, results.DefaultDirName(r.Started, r.Name))
	}
	var report bytes.Buffer
	files := results.DirFiles{Log: s.log.Bytes()}
	if err := htmlreport.Write(&report, r); err == nil {
		files.Report = report.Bytes()
	} else {
		fmt.Fprintf(s.log, "report.html not written: %v\n", err)
	}
	if err := results.WriteDir(dir, r, files); err != nil {
		return "", err
	}
	return dir, nil
}

// runLog is the run log: server command output and worker messages,
// written from several goroutines.
type runLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *runLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// Bytes returns a copy of what was logged.
func (l *runLog) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}
