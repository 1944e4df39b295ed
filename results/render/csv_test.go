package render

import (
	"bytes"
	"encoding/csv"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestWriteCSVGolden(t *testing.T) {
	tests := []struct {
		name string
		run  *results.Run
	}{
		{"compare", fixture.CompareRun()},
		{"sweep", fixture.SweepRun()},
		{"interrupted", fixture.InterruptedRun()},
		{"servercpus", fixture.ServerCPUsRun()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteCSV(&b, analysis.Analyze(tt.run)); err != nil {
				t.Fatalf("WriteCSV: %v", err)
			}
			golden(t, filepath.Join("testdata", tt.name+".csv.golden"), b.Bytes())
		})
	}
}

// golden compares got with the golden file at path, rewriting it first
// under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./results -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test ./results -update refreshes it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// readCSV parses WriteCSV's output of r into records keyed by column name.
func readCSV(t *testing.T, r *results.Run) []map[string]string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCSV(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("summary.csv does not parse: %v", err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, name := range recs[0] {
			m[name] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

// TestWriteCSVTotals parses summary.csv back and checks that its numbers
// are the run's: per-repetition requests and errors, their sums in the
// "all" rows, rates, and the statistics.
func TestWriteCSVTotals(t *testing.T) {
	for name, r := range map[string]*results.Run{"compare": fixture.CompareRun(), "sweep": fixture.SweepRun(), "interrupted": fixture.InterruptedRun()} {
		rows := readCSV(t, r)
		wantRows := 0
		for _, v := range r.Variants {
			wantRows += len(v.Reps) + 1
		}
		if got := len(rows); got != wantRows {
			t.Fatalf("%s: %d rows, want %d", name, got, wantRows)
		}
		k := 0
		for vi := range r.Variants {
			v := &r.Variants[vi]
			var reqs, errs uint64
			for ri := range v.Reps {
				row, tot := rows[k], &v.Reps[ri].Total
				k++
				if row["variant"] != v.Name || row["rep"] != strconv.Itoa(ri+1) {
					t.Errorf("%s: row %d is %s/%s, want %s/%d", name, k, row["variant"], row["rep"], v.Name, ri+1)
				}
				if got, want := row["requests"], strconv.FormatUint(tot.Requests, 10); got != want {
					t.Errorf("%s: %s rep %d requests = %s, want %s", name, v.Name, ri+1, got, want)
				}
				if got, _ := strconv.ParseFloat(row["req_per_s"], 64); !fixture.Near(got, tot.Rate(), 1e-8) {
					t.Errorf("%s: %s rep %d req_per_s = %v, want %v", name, v.Name, ri+1, got, tot.Rate())
				}
				var classSum uint64
				for c := range results.NumErrorClasses {
					n, _ := strconv.ParseUint(row["errors_"+c.String()], 10, 64)
					classSum += n
				}
				if got, want := row["errors"], strconv.FormatUint(tot.Errors.Total(), 10); got != want || strconv.FormatUint(classSum, 10) != want {
					t.Errorf("%s: %s rep %d errors = %s (classes sum to %d), want %s", name, v.Name, ri+1, got, classSum, want)
				}
				reqs += tot.Requests
				errs += tot.Errors.Total()
			}
			all := rows[k]
			k++
			if all["rep"] != "all" || all["variant"] != v.Name {
				t.Fatalf("%s: statistics row of %s is %v", name, v.Name, all)
			}
			if got, want := all["requests"], strconv.FormatUint(reqs, 10); got != want {
				t.Errorf("%s: %s all requests = %s, want %s", name, v.Name, got, want)
			}
			if got, want := all["errors"], strconv.FormatUint(errs, 10); got != want {
				t.Errorf("%s: %s all errors = %s, want %s", name, v.Name, got, want)
			}
			st := stats.Summarize(v.Rates())
			if st.N > 0 {
				if got, _ := strconv.ParseFloat(all["mean_req_per_s"], 64); !fixture.Near(got, st.Mean, 1e-8) {
					t.Errorf("%s: %s mean = %v, want %v", name, v.Name, got, st.Mean)
				}
			} else if all["mean_req_per_s"] != "" {
				t.Errorf("%s: %s has no repetitions but mean %q", name, v.Name, all["mean_req_per_s"])
			}
		}
	}
}

// TestWriteCSVSweep checks the sweep, CPU and probe columns against
// hand-computed values of sweepRun.
func TestWriteCSVSweep(t *testing.T) {
	rows := readCSV(t, fixture.SweepRun())
	find := func(variant, rep string) map[string]string {
		for _, r := range rows {
			if r["variant"] == variant && r["rep"] == rep {
				return r
			}
		}
		t.Fatalf("no row %s/%s", variant, rep)
		return nil
	}
	tests := []struct {
		variant, rep, col, want string
	}{
		{"kae-soft-33", "1", "sweep.ratio", "33"},
		{"kae-soft-33", "all", "series", "kae-soft-{ratio}"},
		{"baseline", "1", "sweep.ratio", ""},
		// 0.55·8 + 0.56·8 CPU-seconds for 240,680 requests.
		{"baseline", "1", "client_cpu_s", "8.880"},
		{"baseline", "1", "req_per_client_cpu_s", "27103.604"},
		// 240,680 requests / 3.9 server CPU-seconds.
		{"baseline", "1", "req_per_server_cpu_s", "61712.821"},
		// (240,680 + 240,600 + 240,200) / (3 · 3.9)
		{"baseline", "all", "req_per_server_cpu_s", "61664.957"},
		{"baseline", "all", "server_cpu_s", "11.700"},
		{"kae-soft-0", "1", "client_bound", "true"},
		{"kae-soft-0", "1", "client_busy_max", "0.9700"},
		{"kae-soft-0", "2", "client_bound", "false"},
		{"kae-soft-0", "all", "client_bound", "true"},
		{"kae-soft-10", "all", "client_bound", "false"},
		// ratio 0: one kae op per request of rep 1 (340,200 requests).
		{"kae-soft-0", "1", "probe.kae_ops.delta", "340200"},
		{"kae-soft-0", "1", "probe.kae_ops.per_request", "1.000000"},
		// ratio 33's second reading failed: empty, and the mean is over two.
		{"kae-soft-33", "2", "probe.kae_ops.delta", ""},
		{"kae-soft-33", "all", "probe.kae_ops.per_request", "0.670000"},
		{"baseline", "all", "test", "baseline"},
		{"baseline", "all", "delta_pct", ""},
		{"kae-soft-33", "all", "significant", "true"},
		{"kae-soft-33", "all", "test", stats.TestStudentLog},
	}
	for _, tt := range tests {
		if got := find(tt.variant, tt.rep)[tt.col]; got != tt.want {
			t.Errorf("%s rep %s %s = %q, want %q", tt.variant, tt.rep, tt.col, got, tt.want)
		}
	}
}
