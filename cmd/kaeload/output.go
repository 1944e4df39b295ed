package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// writeOutput renders into path ("" or "-": stdout) atomically: a
// temporary file is renamed over path only when render succeeded.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" || path == "-" {
		return render(stdout)
	}
	wrap := func(err error) error {
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	dir, name := filepath.Split(path)
	f, err := os.CreateTemp(cmp.Or(dir, "."), "."+name+".tmp-*")
	if err != nil {
		return wrap(err)
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed into place
	w := bufio.NewWriter(f)
	if err = render(w); err == nil {
		err = wrap(w.Flush())
	}
	if err == nil {
		if err = f.Chmod(0o644); err == nil {
			err = f.Sync()
		}
	}
	if err = cmp.Or(err, wrap(f.Close())); err != nil {
		return err
	}
	return wrap(os.Rename(f.Name(), path))
}

// redactWriter hides secret values: it holds back a partial line until its
// newline, so a secret split across writes is seen whole.
type redactWriter struct {
	mu     sync.Mutex
	w      io.Writer
	redact func(string) string
	buf    []byte
}

// newRedactWriter returns w itself when there is nothing to hide.
func newRedactWriter(w io.Writer, secrets []string, redact func(string) string) io.Writer {
	if len(secrets) == 0 {
		return w
	}
	return &redactWriter{w: w, redact: redact}
}

func (r *redactWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	i := bytes.LastIndexByte(r.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	out := r.redact(string(r.buf[:i+1]))
	r.buf = append(r.buf[:0], r.buf[i+1:]...)
	if _, err := io.WriteString(r.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flushRedacted writes the partial line a redactWriter w holds back.
func flushRedacted(w io.Writer) {
	if r, ok := w.(*redactWriter); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.buf) > 0 {
			_, _ = io.WriteString(r.w, r.redact(string(r.buf)))
			r.buf = r.buf[:0]
		}
	}
}
