package tables

import (
	"slices"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// profileCell is the Profile table's cell of variant vi in the row labelled label.
func profileCell(t *testing.T, pt *analysis.ProfileTable, label string, vi int) string {
	tb := Profile(pt)
	i := slices.IndexFunc(tb.Rows, func(r []string) bool { return r[0] == label })
	if i < 0 {
		t.Fatalf("no row %q in %q", label, tb.Rows)
	}
	return tb.Rows[i][1+vi]
}

// TestProfileWords: issue 31's RSA-2048 profile bounds offload at 3.48×; kae's measured Δ reads
// "of at most" the baseline's bound, and the baseline has none.
func TestProfileWords(t *testing.T) {
	r := fixture.ProfileRun()
	pt := analysis.SummarizeProfile(r, analysis.Analyze(r).Summary)
	want := "baseline: offloading all crypto (71.3 % of the server's CPU) could make it at most 3.48× faster (+248 %)"
	if lines := ProfileLines(pt); !slices.Contains(lines, want) {
		t.Errorf("bound words\n got %q\nwant %q", lines, want)
	}
	if d := profileCell(t, pt, "Δ vs baseline", 1); !strings.HasSuffix(d, " %, of at most +248 %") || !strings.HasPrefix(d, "+50.") {
		t.Errorf("Δ words: kae %q; want \"+50.… %%, of at most +248 %%\"", d)
	}
	if d := profileCell(t, pt, "Δ vs baseline", 0); d != "-" {
		t.Errorf("Δ words: baseline %q; want -", d)
	}
}

// TestProfileCheckDisagrees: samples 20 % short of the server's CPU seconds × rate fail the
// self-check, and its words say so; all crypto bounds offload at ∞.
func TestProfileCheckDisagrees(t *testing.T) {
	r := &results.Run{Profile: &results.ProfileSpec{Rate: 499, Crypto: []string{"libcrypto"}}, Variants: []results.Variant{{Name: "v", Reps: []results.Rep{{
		ServerCPU:     &results.CPUUsage{Seconds: 1},
		ServerProfile: &results.ServerProfile{Rate: 499, Samples: 399, Libraries: []results.ProfileCount{{Name: "libcrypto.so.3", Samples: 399}}},
	}}}}}
	pt := analysis.SummarizeProfile(r, nil)
	disagrees := func(l string) bool { return strings.Contains(l, "self-check") && strings.Contains(l, "DISAGREES") }
	if lines := ProfileLines(pt); !slices.ContainsFunc(lines, disagrees) {
		t.Errorf("lines %q, want a disagreeing self-check", lines)
	}
	if c := profileCell(t, pt, "offload bound (at most)", 0); c != "∞" {
		t.Errorf("all crypto: bound cell %q, want ∞", c)
	}
}

// TestProfileCheckStolenWords: samples 24 % over the server's CPU seconds × rate, within the time
// the hypervisor stole, agree in words that name the steal, not perf or /proc.
func TestProfileCheckStolenWords(t *testing.T) {
	p := &results.ServerProfile{Rate: 499, Samples: 340, CPUSeconds: 0.55, Steal: 0.15,
		Libraries: []results.ProfileCount{{Name: "libcrypto.so.3", Samples: 340}}}
	r := &results.Run{Profile: &results.ProfileSpec{Rate: 499, Crypto: []string{"libcrypto"}},
		Variants: []results.Variant{{Name: "v", Reps: []results.Rep{{ServerProfile: p}}}}}
	want := "v: self-check: 340 samples vs 0.55 server CPU-s × 499 Hz = 274: ratio 1.24, agrees once the 0.15 CPU-s " +
		"the hypervisor stole from the server while sampling are counted (perf's clock counts them, /proc's CPU seconds do not)"
	if lines := ProfileLines(analysis.SummarizeProfile(r, nil)); !slices.Contains(lines, want) {
		t.Errorf("lines %q\nwant %q", lines, want)
	}
}
