package rundir

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
)

// stored is a run.json written by fd9102d (cmd/kaeload/testdata/stored).
func stored(f *testing.F) []byte {
	b, err := os.ReadFile(filepath.Join("..", "..", "cmd", "kaeload", "testdata", "stored", "interrupted", "run.json"))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// campaign is the bad-input campaign's cases (issue 38) made of run:
// repetition indices of 1e9 and 1e15 and -1, zeros, a cut line.
func campaign(run []byte) [][]byte {
	first := regexp.MustCompile(`"index": *\d+`).FindIndex(run)
	idx := func(v string) []byte {
		return append(append(append([]byte{}, run[:first[0]]...), `"index":`+v...), run[first[1]:]...)
	}
	return [][]byte{run, idx("1000000000"), idx("1000000000000000"), idx("-1"), make([]byte, 4096), run[:len(run)/2]}
}

// analyse renders every text output of r: none may panic or hang.
func analyse(r *results.Run) {
	m := analysis.Analyze(r)
	_ = render.WriteText(io.Discard, m)
	_ = render.WriteCSV(io.Discard, m)
}

func FuzzReadRun(f *testing.F) {
	for _, c := range campaign(stored(f)) {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := results.ReadRun(bytes.NewReader(b)); err == nil {
			analyse(r)
		}
	})
}

func FuzzReadJournal(f *testing.F) {
	for _, c := range campaign(stored(f)) {
		f.Add(append(append([]byte(`{"type":"begin","run":`), c...), "}\n"...))
	}
	f.Add([]byte(`{"type":"begin","run":{"schema_version":1,"variants":[{"name":"a"}]}}` + "\n" + `{"type":"rep","variant":0,"rep":{"index":7}}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, _, err := readJournal(bytes.NewReader(b), false); err == nil {
			r.Variants = results.Measured(r.Variants)
			analyse(r)
		}
	})
}
