package rundir

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// The files of a run directory.
const (
	RunFile     = "run.json"
	SummaryFile = "summary.csv"
	SpeedFile   = "speed.csv"
	ProfileFile = "profile.csv"
	ReportFile  = "report.html"
	LogFile     = "run.log" // server command output, warnings
)

// DefaultDirName is "20261202T134500Z-nginx-kae": the UTC start and the name ("run" if empty, 64
// bytes at most, each run of characters outside [A-Za-z0-9._-] as one '-').
func DefaultDirName(started time.Time, name string) string {
	clean := cmp.Or(unsafeRuns.ReplaceAllString(name, "-"), "run")
	return started.UTC().Format("20060102T150405Z") + "-" + clean[:min(len(clean), 64)]
}

var unsafeRuns = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// CheckWritable makes sure runs can be stored under parent, made if need be.
func CheckWritable(parent string) error {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("results directory %s: %w", parent, err)
	}
	f, err := os.CreateTemp(parent, ".kaeload-check-*")
	if err != nil {
		return fmt.Errorf("results directory %s is not writable: %w", parent, err)
	}
	_, werr := f.WriteString("kaeload\n")
	if err := errors.Join(werr, f.Close(), os.Remove(f.Name())); err != nil {
		return fmt.Errorf("results directory %s is not writable: %w", parent, err)
	}
	return nil
}

// writeFileAtomic writes dir/name through a synced temporary file.
func writeFileAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
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

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return cmp.Or(d.Sync(), d.Close())
}

// ReadRunFile reads a run.json file, or a run directory through its journal when it has one.
func ReadRunFile(path string, opts JournalOptions) (*results.Run, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read run: %w", err)
	}
	journal := fi.IsDir()
	if journal {
		path = filepath.Join(path, JournalFile)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			journal, path = false, filepath.Join(filepath.Dir(path), RunFile)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read run: %w", err)
	}
	defer f.Close()
	var r *results.Run
	if !journal {
		r, err = results.ReadRun(f)
	} else if r, _, err = readJournal(f, false); err == nil {
		r.Variants = results.Measured(r.Variants)
		if opts.Annotate != nil {
			opts.Annotate(r) // as the journal's run.json has it
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", path, err)
	}
	return r, nil
}
