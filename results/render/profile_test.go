package render

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestWriteProfilePprof: a variant's pprof file parses back with its
// samples (those of its folded stacks, one per 1/499 s of CPU), and `go
// tool pprof -top` opens it and lists the heaviest library's frames
// first. A variant without a profile has no file.
func TestWriteProfilePprof(t *testing.T) {
	m := analysis.Analyze(fixture.ProfileRun())
	var b bytes.Buffer
	if err := WriteProfilePprof(&b, m, 0); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var samples int64
	for _, s := range p.Sample {
		samples += s.Value[0]
	}
	if got, want := uint64(samples), m.Profile.Variants[0].Samples; got != want {
		t.Errorf("pprof holds %d samples, want %d", got, want)
	}
	if got, want := p.Period, int64(1_000_000_000)/499; got != want {
		t.Errorf("period %d ns, want %d", got, want)
	}
	if err := WriteProfilePprof(&b, m, 2); err == nil {
		t.Errorf("variant %s without a profile: no error", m.Profile.Variants[2].Name)
	}

	gobin := testkit.NeedCommand(t, "go", "go tool pprof opens the file")
	file := filepath.Join(t.TempDir(), m.Profile.Variants[0].Pprof)
	b.Reset()
	if err := WriteProfilePprof(&b, m, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gobin, "tool", "pprof", "-top", file).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top: %v\n%s", err, out)
	}
	var first string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 6 && strings.HasSuffix(f[1], "%") && strings.HasSuffix(f[2], "%") {
			first = l
			break
		}
	}
	if !strings.Contains(first, "[unknown] in libcrypto.so.3") {
		t.Errorf("go tool pprof -top's first row %q, want libcrypto's frame:\n%s", first, out)
	}
}

// TestWriteProfileCSV: a row per library and function, the crypto
// share, bound, Δ and self-check rows, and the variant without a
// profile's reason.
func TestWriteProfileCSV(t *testing.T) {
	m := analysis.Analyze(fixture.ProfileRun())
	var b bytes.Buffer
	if err := WriteProfileCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, r := range rows[1:] {
		kinds[r[0]+" "+r[1]]++
		if r[1] == "not_available" && r[7] != "profile not available: perf not found" {
			t.Errorf("not available row %q", r)
		}
	}
	for k, want := range map[string]int{"baseline library": 5, "kae library": 6, "baseline crypto_share": 1, "kae delta_pct": 1,
		"baseline self_check": 1, "kae offload_bound": 1, "qat not_available": 1, "baseline delta_pct": 0} {
		if got := kinds[k]; got != want {
			t.Errorf("%s rows: %d, want %d", k, got, want)
		}
	}
}
