package speed

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseSpeedOutput checks that Parse never panics and that every
// result it returns is usable: a name, a finite rate >= 0 and a unit.
// The seed corpus under testdata/fuzz/FuzzParseSpeedOutput holds the
// real outputs of testdata.
func FuzzParseSpeedOutput(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in testdata (%v)", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, out string) {
		rs, err := Parse(out)
		if err != nil {
			if len(rs) != 0 {
				t.Fatalf("error %v with %d results", err, len(rs))
			}
			return
		}
		if len(rs) == 0 {
			t.Fatal("no error and no results")
		}
		for _, r := range rs {
			if r.Algorithm == "" || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Value < 0 || (r.Unit != OpsPerSec && r.Unit != BytesPerSec) || r.Block < 0 {
				t.Fatalf("unusable result %+v", r)
			}
		}
	})
}
