package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestSearchReports: the text and Markdown reports say windows against
// the grid, the best with its CI, the plateau and its lowest value, and
// the visit order; the sweep of the search's series marks its plateau.
func TestSearchReports(t *testing.T) {
	r := fixture.SearchRun()
	var text, md bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"6 windows of a budget of 6; the full grid would need 6",
		"best ratio = 30: 1,010 req/s (95 % CI",
		"plateau (not significantly worse than the best, Holm-adjusted t-test on the log scale): 20, 30; lowest ratio = 20",
		"measured once, so not tested and on no plateau: 0, 50",
		"visit order: 1:0 2:50 3:20 4:30 5:30 6:20",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}
	s := analysis.Analyze(r).Summary
	var on []string
	for _, v := range s.Variants {
		if v.Plateau {
			on = append(on, v.Name)
		}
	}
	if got, want := strings.Join(on, " "), "soft-20 soft-30"; got != want {
		t.Errorf("sweep plateau %q, want %q", got, want)
	}
}
