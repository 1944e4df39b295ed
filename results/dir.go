package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The files of a run directory.
const (
	// RunFile is the run itself (WriteJSON); ReadRunFile reads it back.
	RunFile = "run.json"
	// SummaryFile is one row per variant × repetition and per variant (WriteCSV).
	SummaryFile = "summary.csv"
	// SpeedFile is one row per variant × speed command × figure
	// (WriteSpeedCSV), present only when a variant ran speed commands.
	SpeedFile = "speed.csv"
	// ReportFile is the HTML report (DirFiles.Report).
	ReportFile = "report.html"
	// LogFile is the run's log: server command output, warnings (DirFiles.Log).
	LogFile = "run.log"
)

// DirFiles are what a run directory holds besides the files this package
// renders from the Run (RunFile, SummaryFile, SpeedFile).
type DirFiles struct {
	// Report is written as ReportFile when not nil (rendered by the HTML
	// report package).
	Report []byte
	// Log is written as LogFile when not nil; LogPath instead names a file
	// whose content is copied to LogFile (the log the run wrote as it
	// went). Setting both is an error.
	Log     []byte
	LogPath string
	// Other are further files by base name (e.g. "scenario.yaml"). A name
	// must be a plain file name, not hidden, and none of the names above.
	Other map[string][]byte
}

// DefaultDirName returns the directory name of a run started at started
// for the scenario name: the UTC start time and the name with every
// character outside [A-Za-z0-9._-] replaced by '-' (runs of them by one),
// e.g. "20261202T134500Z-nginx-kae". An empty name becomes "run"; the
// name part is cut to 64 bytes.
func DefaultDirName(started time.Time, name string) string {
	var b strings.Builder
	dash := false
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		switch {
		case ok:
			b.WriteRune(c)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	clean := b.String()
	if len(clean) > 64 {
		clean = clean[:64]
	}
	if clean == "" {
		clean = "run"
	}
	return started.UTC().Format("20060102T150405Z") + "-" + clean
}

// CheckWritable makes sure runs can be stored under parent before any
// load is sent: it creates parent (and its parents) if needed, then
// creates, writes and removes a temporary file there.
func CheckWritable(parent string) error {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("results directory %s: %w", parent, err)
	}
	f, err := os.CreateTemp(parent, ".kaeload-check-*")
	if err != nil {
		return fmt.Errorf("results directory %s is not writable: %w", parent, err)
	}
	_, werr := f.WriteString("kaeload\n")
	cerr := f.Close()
	rerr := os.Remove(f.Name())
	if err := errors.Join(werr, cerr, rerr); err != nil {
		return fmt.Errorf("results directory %s is not writable: %w", parent, err)
	}
	return nil
}

// WriteDir writes the run directory dir: RunFile (after r.Annotate, so
// it carries the client-bound warnings), SummaryFile, SpeedFile when any
// variant has a speed run, and the files of extra. dir must not exist: an existing run is never overwritten, and the
// error then wraps fs.ErrExist. The parent of dir is created if needed.
//
// The directory appears complete or not at all: every file is written and
// synced in a fresh hidden directory next to dir (each file as a temporary
// file renamed into place), which is then renamed to dir without replacing
// anything that appeared meanwhile. On failure the hidden directory is
// removed.
//
// Should summary.csv fail to render, the directory is still written
// without it, so the measurements are kept, and the error says so.
func WriteDir(dir string, r *Run, extra DirFiles) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("write run directory %s: %w", dir, err)
		}
	}()
	if extra.Log != nil && extra.LogPath != "" {
		return errors.New("both log bytes and a log path given")
	}
	for name := range extra.Other {
		switch {
		case name == "" || name != filepath.Base(name) || strings.HasPrefix(name, "."):
			return fmt.Errorf("file name %q: want a plain, not hidden file name", name)
		case name == RunFile || name == SummaryFile || name == SpeedFile || name == ReportFile || name == LogFile:
			return fmt.Errorf("file name %q: reserved", name)
		}
	}
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("a run is already stored there: %w", fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}

	r.Annotate()
	var runJSON, summary bytes.Buffer
	if err := WriteJSON(&runJSON, r); err != nil {
		return err
	}
	csvErr := WriteCSV(&summary, r)
	var speed *bytes.Buffer
	if hasSpeed(r) {
		speed = new(bytes.Buffer)
		if err := WriteSpeedCSV(speed, r); err != nil {
			return err
		}
	}

	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".partial-")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	files := []namedFile{{RunFile, runJSON.Bytes()}}
	if csvErr == nil {
		files = append(files, namedFile{SummaryFile, summary.Bytes()})
	}
	if speed != nil {
		files = append(files, namedFile{SpeedFile, speed.Bytes()})
	}
	if extra.Report != nil {
		files = append(files, namedFile{ReportFile, extra.Report})
	}
	if extra.Log != nil {
		files = append(files, namedFile{LogFile, extra.Log})
	}
	for name, data := range extra.Other {
		files = append(files, namedFile{name, data})
	}
	for _, f := range files {
		if err := writeFileAtomic(tmp, f.name, bytes.NewReader(f.data)); err != nil {
			return err
		}
	}
	if extra.LogPath != "" {
		lf, err := os.Open(extra.LogPath)
		if err != nil {
			return fmt.Errorf("copy log: %w", err)
		}
		err = writeFileAtomic(tmp, LogFile, lf)
		lf.Close()
		if err != nil {
			return fmt.Errorf("copy log %s: %w", extra.LogPath, err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := renameNoReplace(tmp, dir); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("a run is already stored there: %w", err)
		}
		return err
	}
	done = true
	if err := syncDir(parent); err != nil {
		return err
	}
	if csvErr != nil {
		return fmt.Errorf("stored without %s: %w", SummaryFile, csvErr)
	}
	return nil
}

// namedFile is a file of a run directory and its content.
type namedFile struct {
	name string
	data []byte
}

// writeFileAtomic writes the content of src to dir/name through a
// temporary file in dir that is synced and renamed into place.
func writeFileAtomic(dir, name string, src io.Reader) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// syncDir flushes a directory's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadRunFile reads a stored run: path is a run.json file or a run
// directory. A directory with a journal (JournalFile) is read through it
// (ReadJournal), so a run whose controller died shows every repetition it
// finished, marked Incomplete; otherwise its RunFile is read.
func ReadRunFile(path string) (*Run, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read run: %w", err)
	}
	if fi.IsDir() {
		jp := filepath.Join(path, JournalFile)
		if f, err := os.Open(jp); err == nil {
			defer f.Close()
			r, err := ReadJournal(f)
			if err != nil {
				return nil, fmt.Errorf("read run %s: %w", jp, err)
			}
			r.Annotate() // as the journal's run.json has it
			return r, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read run: %w", err)
		}
		path = filepath.Join(path, RunFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read run: %w", err)
	}
	defer f.Close()
	r, err := ReadRun(f)
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", path, err)
	}
	return r, nil
}

// renameIfAbsent renames oldpath to newpath unless newpath exists. The
// check and the rename are two steps; renameNoReplace uses it only where
// the system offers nothing atomic.
func renameIfAbsent(oldpath, newpath string) error {
	if _, err := os.Lstat(newpath); err == nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: fs.ErrExist}
	}
	return os.Rename(oldpath, newpath)
}
