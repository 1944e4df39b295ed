package rundir

import (
	"encoding/csv"
	"errors"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStoredSpeed checks speed.csv: written to the run directory when a variant
// ran speed commands, valid CSV, one row per variant × command × figure
// (a failed command without figures one row), the values exactly those
// of the stored run.json.
func TestStoredSpeed(t *testing.T) {
	fixture.SingleGoroutine(t)
	r := fixture.SpeedRun()
	// A value with many digits: the CSV must not round it.
	r.Variants[1].Speed[0].Results = append(r.Variants[1].Speed[0].Results,
		results.SpeedResult{Algorithm: "ECDH P-256", Operation: "operations", Value: 12345.678901234567, Unit: "ops/s"})
	dir := filepath.Join(t.TempDir(), "run")
	storeRun(t, dir, r)
	f, err := os.Open(filepath.Join(dir, SpeedFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("parse %s: %v", SpeedFile, err)
	}
	if got, want := strings.Join(rows[0], ","), "variant,command,algorithm,operation,block,value,unit,error"; got != want {
		t.Fatalf("header = %q, want %q", got, want)
	}
	stored, err := ReadRunFile(dir, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]string
	for _, v := range stored.Variants {
		for _, run := range v.Speed {
			if len(run.Results) == 0 {
				want = append(want, []string{v.Name, run.Command, "", "", "", "", "", run.Error})
			}
			for _, res := range run.Results {
				want = append(want, []string{v.Name, run.Command, res.Algorithm, res.Operation, strconv.Itoa(res.Block), "", res.Unit, run.Error})
			}
		}
	}
	if len(want) != 7 {
		t.Fatalf("the fixture has %d speed rows, want 7", len(want))
	}
	body := rows[1:]
	if len(body) != len(want) {
		t.Fatalf("%s has %d rows, want %d:\n%q", SpeedFile, len(body), len(want), body)
	}
	values := []float64{}
	for _, v := range stored.Variants {
		for _, run := range v.Speed {
			for _, res := range run.Results {
				values = append(values, res.Value)
			}
		}
	}
	vi := 0
	for i, row := range body {
		w := want[i]
		if len(row) != 8 {
			t.Errorf("row %d = %q: %d cells, want 8", i+1, row, len(row))
			continue
		}
		block := row[4]
		if block == "" {
			block = "0"
		}
		if w[2] == "" { // a failed command without figures
			if row[0] != w[0] || row[1] != w[1] || strings.Join(row[2:7], "") != "" || row[7] != w[7] || w[7] == "" {
				t.Errorf("row %d = %q, want %q", i+1, row, w)
			}
			continue
		}
		got, err := strconv.ParseFloat(row[5], 64)
		if err != nil || got != values[vi] {
			t.Errorf("row %d value %q (%v), want %v as in run.json", i+1, row[5], err, values[vi])
		}
		vi++
		if row[0] != w[0] || row[1] != w[1] || row[2] != w[2] || row[3] != w[3] || block != w[4] || row[6] != w[6] || row[7] != w[7] {
			t.Errorf("row %d = %q, want %q (value aside)", i+1, row, w)
		}
	}
	// A run without speed runs gets no speed.csv.
	dir = filepath.Join(t.TempDir(), "run")
	storeRun(t, dir, fixture.CompareRun())
	if _, err := os.Stat(filepath.Join(dir, SpeedFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("run without speed runs: stat %s = %v, want not exist", SpeedFile, err)
	}
}
