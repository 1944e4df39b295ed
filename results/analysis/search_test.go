package analysis

import (
	"github.com/kaeload/kaeload/results/internal/fixture"
	"slices"
	"strings"
	"testing"
)

func TestSummarizeSearch(t *testing.T) {
	ss := SummarizeSearch(fixture.SearchRun())
	var vals, plateau, once []string
	for _, p := range ss.Points {
		vals = append(vals, p.Value)
		if p.Untested {
			once = append(once, p.Value)
		}
	}
	for _, i := range ss.Plateau {
		plateau = append(plateau, ss.Points[i].Value)
	}
	if got, want := strings.Join(vals, " "), "0 20 30 50"; got != want {
		t.Errorf("points %q, want %q (grid order, visited only)", got, want)
	}
	if got, want := ss.Points[ss.Best].Value, "30"; got != want {
		t.Errorf("best %s, want %s", got, want)
	}
	if got, want := strings.Join(plateau, " "), "20 30"; got != want || ss.Points[ss.PlateauLow].Value != "20" {
		t.Errorf("plateau %q (low %d), want %q, lowest 20", got, ss.PlateauLow, want)
	}
	if got, want := strings.Join(once, " "), "0 50"; got != want {
		t.Errorf("untested %q, want %q", got, want)
	}
	if got, want := ss.Points[1].Visits, []int{3, 6}; !slices.Equal(got, want) {
		t.Errorf("visits of 20: %v, want %v", got, want)
	}
	if got, want := ss.Windows, 6; got != want || ss.Grid != 6 {
		t.Errorf("windows %d grid %d, want 6 and 6", got, ss.Grid)
	}
}
