package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// speedRun is compareRun with speed runs: RSA figures from bssl and an
// SM4 table from gmssl for both variants, one figure only the baseline
// has, and a failed command of the kae variant.
func speedRun() *Run {
	r := compareRun()
	r.Name = "nginx-kae-speed"
	bssl := "bssl speed -filter RSA -timeout 6"
	gm := "gmssl speed -elapsed -evp sms4-cbc"
	r.Variants[0].Speed = []SpeedRun{
		{Command: bssl, Results: []SpeedResult{
			{Algorithm: "RSA 2048", Operation: "signing", Value: 801.2, Unit: "ops/s"},
			{Algorithm: "RSA 2048", Operation: "verify (fresh key)", Value: 28806.3, Unit: "ops/s"},
		}},
		{Command: gm, Results: []SpeedResult{
			{Algorithm: "sms4-cbc", Block: 16, Value: 26448180, Unit: "bytes/s"},
			{Algorithm: "sms4-cbc", Block: 16384, Value: 35662510, Unit: "bytes/s"},
		}},
	}
	r.Variants[1].Speed = []SpeedRun{
		{Command: bssl, Results: []SpeedResult{
			{Algorithm: "RSA 2048", Operation: "signing", Value: 1602.4, Unit: "ops/s"},
		}},
		{Command: gm, Error: `server speed command "gmssl speed -elapsed -evp sms4-cbc" failed: exit status 1`},
	}
	return r
}

// TestWriteTextSpeed checks the crypto speed section's figures and
// deltas directly, so that a careless -update cannot bless a wrong one.
func TestWriteTextSpeed(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, Analyze(speedRun())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	_, section, ok := strings.Cut(out, "\n== crypto speed")
	if !ok {
		t.Fatalf("no crypto speed section in:\n%s", out)
	}
	for _, want := range []string{
		`, baseline "baseline"`,
		"speed[0]: bssl speed -filter RSA -timeout 6",
		"[0] RSA 2048 signing             ops/s           801.2  1,602.4  +100.00 %",
		"[0] RSA 2048 verify (fresh key)  ops/s        28,806.3        -          -",
		"[1] sms4-cbc 16 bytes            bytes/s  26,448,180.0        -          -",
		`variant kae: speed[1] "gmssl speed -elapsed -evp sms4-cbc": "server speed command`,
	} {
		if !strings.Contains(section, want) {
			t.Errorf("crypto speed section\n%s\nwant it to contain %q", section, want)
		}
	}
	b.Reset()
	if err := WriteText(&b, Analyze(compareRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section:\n%s", b.String())
	}
}

// TestSummarizeSpeed checks the shared model: rows in order of first
// appearance, values per variant, deltas, failures, and no model without
// speed runs.
func TestSummarizeSpeed(t *testing.T) {
	st, err := SummarizeSpeed(speedRun())
	if err != nil || st == nil {
		t.Fatalf("SummarizeSpeed = %v, %v; want a table", st, err)
	}
	var figures []string
	for i := range st.Rows {
		figures = append(figures, st.Rows[i].Figure())
	}
	wantFigures := "[0] RSA 2048 signing|[0] RSA 2048 verify (fresh key)|[1] sms4-cbc 16 bytes|[1] sms4-cbc 16384 bytes"
	if got := strings.Join(figures, "|"); got != wantFigures {
		t.Errorf("figures = %q, want %q", got, wantFigures)
	}
	if got, want := strings.Join(st.Header(), "|"), "figure|unit|baseline|kae|Δ% kae"; got != want {
		t.Errorf("header = %q, want %q", got, want)
	}
	if d, ok := st.Delta(&st.Rows[0], 1); !ok || d != 100 {
		t.Errorf("Δ%% of kae's RSA signing = %v, %v; want 100, true (1602.4 / 801.2)", d, ok)
	}
	if d, ok := st.Delta(&st.Rows[1], 1); ok {
		t.Errorf("Δ%% of a figure kae lacks = %v, true; want undefined", d)
	}
	if got, want := strings.Join(st.Cells(&st.Rows[2]), "|"), "[1] sms4-cbc 16 bytes|bytes/s|26,448,180.0|-|-"; got != want {
		t.Errorf("cells = %q, want %q", got, want)
	}
	if len(st.Failures) != 1 || st.Failures[0].Variant != "kae" || st.Failures[0].Command != 1 || !strings.Contains(st.Failures[0].Error, "exit status 1") {
		t.Errorf("failures = %+v, want kae's speed[1] with its error", st.Failures)
	}

	// The baseline named by the run is the one compared with.
	r := speedRun()
	r.Baseline = "kae"
	if st, err = SummarizeSpeed(r); err != nil || st.Baseline != 1 {
		t.Fatalf("SummarizeSpeed with baseline kae = %+v, %v", st, err)
	}
	if d, ok := st.Delta(&st.Rows[0], 0); !ok || d != -50 {
		t.Errorf("Δ%% of baseline against kae = %v, %v; want -50, true", d, ok)
	}
	r.Baseline = "nope"
	if st, err := SummarizeSpeed(r); err != nil || st.Baseline != -1 {
		t.Errorf("SummarizeSpeed with a baseline not measured = %+v, %v; want Baseline -1", st, err)
	}
	if st, err := SummarizeSpeed(compareRun()); st != nil || err != nil {
		t.Errorf("SummarizeSpeed of a run without speed runs = %+v, %v; want nil, nil", st, err)
	}
}

// TestWriteMarkdownSpeed checks the Markdown crypto speed section's
// cells directly, so that a careless -update cannot bless a wrong one.
func TestWriteMarkdownSpeed(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Analyze(speedRun())); err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(b.String(), "\n## Crypto speed\n")
	if !ok {
		t.Fatalf("no crypto speed section in:\n%s", b.String())
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, want := range []string{
		"baseline **baseline**",
		"- speed\\[0\\]: bssl speed -filter RSA -timeout 6\n",
		"| figure | unit | baseline | kae | Δ% kae |\n|---|---|---:|---:|---:|\n",
		"| \\[0\\] RSA 2048 signing | ops/s | 801.2 | 1,602.4 | +100.00 % |\n",
		"| \\[1\\] sms4-cbc 16384 bytes | bytes/s | 35,662,510.0 | - | - |\n",
		"**FAILED:** variant kae, speed\\[1\\]",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("crypto speed section\n%s\nwant it to contain %q", section, want)
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, Analyze(compareRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section:\n%s", b.String())
	}
}

// TestStoredSpeed checks speed.csv: written to the run directory when a variant
// ran speed commands, valid CSV, one row per variant × command × figure
// (a failed command without figures one row), the values exactly those
// of the stored run.json.
func TestStoredSpeed(t *testing.T) {
	singleGoroutine(t)
	r := speedRun()
	// A value with many digits: the CSV must not round it.
	r.Variants[1].Speed[0].Results = append(r.Variants[1].Speed[0].Results,
		SpeedResult{Algorithm: "ECDH P-256", Operation: "operations", Value: 12345.678901234567, Unit: "ops/s"})
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
	stored, err := ReadRunFile(dir)
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
	storeRun(t, dir, compareRun())
	if _, err := os.Stat(filepath.Join(dir, SpeedFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("run without speed runs: stat %s = %v, want not exist", SpeedFile, err)
	}
}
