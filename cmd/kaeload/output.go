package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeOutput renders into path ("" or "-": stdout) atomically: a
// temporary file is renamed over path only when render succeeded.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" || path == "-" {
		return render(stdout)
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := bufio.NewWriter(f)
	err = render(w)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write %s: %w", path, ferr)
	}
	if err == nil {
		if err = f.Chmod(0o644); err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", path, cerr)
	}
	if err == nil {
		if err = os.Rename(f.Name(), path); err != nil {
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
