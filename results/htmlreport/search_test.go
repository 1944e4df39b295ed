package htmlreport

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// searchRun is a run that searched ratio over 0, 10, … 50 and visited 0,
// 50, 20, 30, 30, 20: 20 and 30 equal (the plateau), 0 and 50 once.
func searchRun() *results.Run {
	r := &results.Run{SchemaVersion: results.SchemaVersion, Name: "search", Started: t0}
	s := &results.Search{Series: "soft-{ratio}", Key: "ratio", Maximize: results.ObjectiveRate, Budget: 6,
		Values: []string{"0", "10", "20", "30", "40", "50"}}
	r.Search = s
	index := map[string]int{}
	for _, vis := range []struct {
		value    string
		perGroup uint64
	}{{"0", 500}, {"50", 600}, {"20", 1000}, {"30", 1015}, {"30", 1005}, {"20", 1005}} {
		i, ok := index[vis.value]
		if !ok {
			i = len(r.Variants)
			index[vis.value] = i
			r.Variants = append(r.Variants, results.Variant{Name: "soft-" + vis.value, Series: s.Series, Sweep: map[string]string{"ratio": vis.value}})
		}
		v := &r.Variants[i]
		rp := rep(len(v.Reps), vis.perGroup, 10, [2]float64{0.5, 0.5}, 0.5)
		v.Reps = append(v.Reps, rp)
		s.Visits = append(s.Visits, results.Visit{Value: vis.value, Variant: v.Name, Rep: rp.Index})
	}
	return r
}

// TestSearchChart: the report of a search has its chart, every visited
// value labelled with its visit numbers, the best and the plateau's
// lowest value named, and the search's lines and table.
func TestSearchChart(t *testing.T) {
	page := write(t, searchRun())
	fig := between(page, `<figure id="chart-search">`, `</figure>`)
	if fig == "" {
		t.Fatalf("no search chart:\n%s", page)
	}
	for _, want := range []string{"#1", "#2", "#3,#6", "#4,#5", "best: ratio = 30", "plateau (lowest: ratio = 20)", "the full grid: 6"} {
		if !strings.Contains(fig, want) {
			t.Errorf("search chart lacks %q", want)
		}
	}
	sec := between(page, `<h3 id="search">`, `</table>`)
	for _, want := range []string{"6 windows of a budget of 6; the full grid would need 6", "lowest ratio = 20", "visit order: 1:0 2:50 3:20 4:30 5:30 6:20", "once, not tested"} {
		if !strings.Contains(sec, want) {
			t.Errorf("search section lacks %q:\n%s", want, sec)
		}
	}
}
