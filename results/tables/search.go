package tables

import (
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"strconv"
	"strings"
)

// Search lists the visited values in grid order: their visit
// numbers, windows, mean and 95 % CI of the objective, and marks.
func Search(s *analysis.SearchSummary) Table {
	t := Table{
		Header: []string{s.Search.Key, "visits", "windows", "mean " + s.Unit(), "95 % CI", "mark"},
		Right:  []bool{true, false, true, true, false, false},
	}
	for i := range s.Points {
		p := &s.Points[i]
		nums := make([]string, len(p.Visits))
		for j, n := range p.Visits {
			nums[j] = "#" + strconv.Itoa(n)
		}
		ci := format.Missing
		if p.Stats.HasCI {
			ci = format.Number(p.Stats.CI95Low) + " … " + format.Number(p.Stats.CI95High)
		}
		var marks []string
		if i == s.Best {
			marks = append(marks, "best")
		}
		if p.Plateau {
			marks = append(marks, "plateau")
		}
		if i == s.PlateauLow {
			marks = append(marks, "lowest on plateau")
		}
		if p.Untested {
			marks = append(marks, "once, not tested")
		}
		t.Add(p.Value, strings.Join(nums, " "), strconv.Itoa(p.Stats.N), format.Number(p.Stats.Mean), ci, strings.Join(marks, ", "))
	}
	return t
}

// SearchRows returns the search's table of visited values (as the text
// report shows it) of the search answer ss (Report.Search) for other
// renderings; ok is false without a search (ss nil).
func SearchRows(ss *analysis.SearchSummary) (lines, header []string, rows [][]string, ok bool) {
	if ss == nil {
		return nil, nil, nil, false
	}
	lines = ss.Lines()
	if len(ss.Points) > 0 {
		lines = append(lines, "visit order: "+ss.VisitOrder())
	}
	t := Search(ss)
	return lines, t.Header, t.Rows, true
}
