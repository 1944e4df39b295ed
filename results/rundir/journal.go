package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// JournalFile is the run directory's journal: one sealed JSON record per line.
const JournalFile = "journal.ndjson"

// Journal is a run directory that grows as the run goes: each record is synced before its call
// returns, so a controller that dies keeps every repetition it finished.
type Journal struct {
	mu      sync.Mutex
	dir     string
	f       *os.File
	run     results.Run // header plus every record so far, all planned variants
	opts    JournalOptions
	ended   bool
	pending bool  // opened by ResumeJournal: nothing written until Resume
	keep    int64 // the complete lines' length, to which Resume cuts the file
}

// JournalOptions inject the analysis and renderers rundir does not import; Render's files are
// written even with its error.
type JournalOptions struct {
	Annotate func(*results.Run)
	Render   func(*results.Run) (map[string][]byte, error)
}

// CreateJournal creates run directory dir and starts its journal; an existing dir's error wraps fs.ErrExist.
// On any error, a rendering's too, the journal is closed and nil: the directory may be left behind.
func CreateJournal(dir string, header *results.Run, opts JournalOptions) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create run directory %s: %w", dir, err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create run directory %s: a run is already stored there: %w", dir, err)
		}
		return nil, fmt.Errorf("create run directory %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, JournalFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create journal: %w", err)
	}
	hdr := clone(header)
	hdr.SchemaVersion = results.SchemaVersion
	for i := range hdr.Variants {
		hdr.Variants[i].Reps, hdr.Variants[i].Speed = nil, nil
	}
	j := &Journal{dir: dir, f: f, opts: opts}
	err = j.apply(results.Change{Type: results.ChangeBegin, Run: &hdr})
	if serr := syncDir(filepath.Dir(dir)); err == nil && serr != nil {
		err = fmt.Errorf("create run directory %s: %w", dir, serr)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// ResumeJournal opens dir's journal to continue its run; nothing is written until Resume.
func ResumeJournal(dir string, opts JournalOptions) (*Journal, *results.Run, error) {
	f, err := os.OpenFile(filepath.Join(dir, JournalFile), os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	r, keep, err := readJournal(f, true)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	j := &Journal{dir: dir, f: f, opts: opts, pending: true, keep: keep, run: *r}
	out := clone(r)
	return j, &out, nil
}

// Resume continues a journal opened by ResumeJournal, cutting a last line cut short; the run is
// Incomplete until End. A resume that fails to write leaves the journal's file as it was.
func (j *Journal) Resume() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.pending || j.ended {
		return errors.New("journal: Resume of a journal not opened by ResumeJournal")
	}
	if err := j.f.Truncate(j.keep); err != nil {
		return fmt.Errorf("resume %s: %w", j.dir, err)
	}
	return j.apply(results.Change{Type: results.ChangeResume})
}

// Record makes change c to the run; the journal's own begin, end and resume are refused.
func (j *Journal) Record(c results.Change) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.ended:
		return errors.New("journal: record after End")
	case j.pending:
		return errors.New("journal: record before Resume")
	case c.Type == results.ChangeBegin || c.Type == results.ChangeEnd || c.Type == results.ChangeResume:
		return fmt.Errorf("journal: Record of a %s change", c.Type)
	}
	return j.apply(c)
}

// End records the end, rebuilds the files and closes the journal; later calls do nothing.
func (j *Journal) End(finished time.Time, interrupted bool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.ended {
		return nil
	}
	var err error
	if !j.pending {
		err = j.apply(results.Change{Type: results.ChangeEnd, Finished: finished, Interrupted: interrupted})
	}
	j.ended = true
	if cerr := j.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close journal: %w", cerr)
	}
	return err
}

// apply adds rec to the run even when the disk refuses it, so that the final report is complete.
// The run keeps the record as the journal's line decodes, so run.json is what a replay gives.
func (j *Journal) apply(rec results.Change) error {
	line, stored, encErr := encode(rec)
	if err := j.run.Apply(stored); err != nil {
		return err
	}
	if encErr != nil {
		return encErr
	}
	if _, err := j.f.Write(line); err != nil {
		return fmt.Errorf("journal %s: %w", j.f.Name(), err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: sync: %w", j.f.Name(), err)
	}
	j.pending = false // a resume is written
	return j.rebuild()
}

// encode returns rec's sealed line and the record a reader decodes from it, or rec for the report alone
// on error. The copy shares no memory with the caller's (a later change to a repetition does not change
// the run) and holds no more than the line (no monotonic clock reading, numbers as JSON reads them).
func encode(rec results.Change) ([]byte, results.Change, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, rec, fmt.Errorf("journal: encode %s record: %w", rec.Type, err)
	}
	var stored results.Change
	if err := json.Unmarshal(b, &stored); err != nil {
		return nil, rec, fmt.Errorf("journal: decode %s record: %w", rec.Type, err)
	}
	return append(seal(b), '\n'), stored, nil
}

// clone copies r's slices that records change; the repetitions are shared.
func clone(r *results.Run) results.Run {
	c := *r
	if r.Search != nil {
		s := *r.Search
		s.Visits = slices.Clone(s.Visits)
		c.Search = &s
	}
	c.Variants = slices.Clone(r.Variants)
	for i := range c.Variants {
		v := &c.Variants[i]
		v.Reps, v.Partial, v.Excluded = slices.Clone(v.Reps), slices.Clone(v.Partial), slices.Clone(v.Excluded)
		v.Speed, v.Info = slices.Clone(v.Speed), slices.Clone(v.Info)
	}
	c.Warnings = slices.Clone(r.Warnings)
	c.NotMeasured = slices.Clone(r.NotMeasured)
	return c
}

// rebuild rewrites run.json, then the rendered files, from a copy of the run as readers see it; j.mu held.
func (j *Journal) rebuild() error {
	r := clone(&j.run)
	r.Variants = results.Measured(r.Variants)
	if j.opts.Annotate != nil {
		j.opts.Annotate(&r)
	}
	var runJSON bytes.Buffer
	if err := results.WriteJSON(&runJSON, &r); err != nil {
		return err
	}
	var files map[string][]byte
	var renderErr error
	if j.opts.Render != nil {
		if files, renderErr = j.opts.Render(&r); renderErr != nil {
			renderErr = fmt.Errorf("render: %w", renderErr)
		}
	}
	err := writeFileAtomic(j.dir, RunFile, runJSON.Bytes())
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err == nil && name != RunFile && name != JournalFile { // the record and the journal are never a rendering's
			err = writeFileAtomic(j.dir, name, files[name])
		}
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		return fmt.Errorf("run directory %s: %w", j.dir, err)
	}
	return renderErr
}

// maxJournalLine bounds one record: a longer line is damage, refused before it is held in memory.
const maxJournalLine = 32 << 20

var (
	errNotRecord = errors.New("does not start with '{': not a kaeload journal record")
	errTooLong   = fmt.Errorf("longer than %d MiB: not a journal record", maxJournalLine>>20)
)

// journalLines splits a journal into lines with their newline (a last one without was cut short).
func journalLines(data []byte, atEOF bool) (int, []byte, error) {
	switch i := bytes.IndexByte(data, '\n'); {
	case len(data) > 0 && data[0] != '{':
		return 0, nil, errNotRecord
	case i >= 0:
		return i + 1, data[:i+1], nil
	case atEOF && len(data) > 0:
		return len(data), data, nil
	}
	return 0, nil, nil
}

// readJournal rebuilds a run from a journal, every planned variant kept, with the complete lines'
// length; a bad line is an error naming it, unless the last, cut short (left out when cutLast).
func readJournal(rd io.Reader, cutLast bool) (*results.Run, int64, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64<<10), maxJournalLine)
	sc.Split(journalLines)
	var r results.Run
	var complete int64
	ended, line := false, 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		last := b[len(b)-1] != '\n'
		if last && cutLast {
			break
		}
		complete += int64(len(b))
		var rec results.Change
		body, err := unseal(b)
		if err == nil {
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			err = dec.Decode(&rec)
		}
		switch {
		case err != nil && last && line > 1:
			continue
		case err != nil:
			return nil, 0, fmt.Errorf("read journal: line %d: %w", line, err)
		case (line == 1) != (rec.Type == results.ChangeBegin):
			return nil, 0, fmt.Errorf("read journal: line %d: want the \"begin\" record on line 1 only, got %q", line, rec.Type)
		case ended && rec.Type != results.ChangeResume:
			return nil, 0, fmt.Errorf("read journal: line %d: %s record after the end", line, rec.Type)
		}
		if err := r.Apply(rec); err != nil {
			return nil, 0, fmt.Errorf("read journal: line %d: %w", line, err)
		}
		ended = rec.Type == results.ChangeEnd
	}
	switch err := sc.Err(); {
	case errors.Is(err, errNotRecord):
		return nil, 0, fmt.Errorf("read journal: line %d %w", line+1, err)
	case errors.Is(err, bufio.ErrTooLong):
		return nil, 0, fmt.Errorf("read journal: line %d: %w", line+1, errTooLong)
	case err != nil:
		return nil, 0, fmt.Errorf("read journal: line %d: %w", line+1, err)
	case complete == 0:
		return nil, 0, errors.New("read journal: empty")
	}
	if err := r.Check(); err != nil {
		return nil, 0, fmt.Errorf("read journal: %w", err)
	}
	return &r, complete, nil
}
