package htmlreport

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestWriteVerdicts: the page shows the run's order and seed, raw and
// Holm-adjusted p, the MDE and the verdict in words for every comparison,
// and the drift table; testdata/verdicts.html.golden keeps the whole page
// (go test ./results/htmlreport -update rewrites it).
func TestWriteVerdicts(t *testing.T) {
	r := fixtureRun()
	r.Order, r.Seed, r.Equivalence = results.OrderRandomized, 7, 0.02
	page := write(t, r)
	root, err := parseStrict(page)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if got := root.byID("order"); got == nil || !strings.Contains(got.allText(), "seed 7 (replay: --seed 7)") {
		t.Errorf("no order note with the seed")
	}
	if got := root.byID("drift"); got == nil {
		t.Errorf("no drift section")
	}
	text := root.allText()
	for _, want := range []string{"p Holm", "MDE", "+50.21 %, significant", "Holm over the run's 2 comparisons", "round effect"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	path := filepath.Join("testdata", "verdicts.html.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./results/htmlreport -update creates it)", err)
	}
	if string(want) != page {
		t.Errorf("page differs from %s (go test ./results/htmlreport -update refreshes it)", path)
	}
}
