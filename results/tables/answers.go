package tables

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
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
	lines = ss.Lines().Strings()
	if len(ss.Points) > 0 {
		lines = append(lines, "visit order: "+ss.VisitOrder())
	}
	t := Search(ss)
	return lines, t.Header, t.Rows, true
}

// CapacityRows is the table of one variant's steps, for reports: its
// header and one row per step (rate asked, achieved, missed share, error
// share, p99 handshake, p99 total from the intended start, verdict).
func CapacityRows(c *results.Capacity) (header []string, rows [][]string) {
	t := Capacity(c)
	return t.Header, t.Rows
}

// Capacity is the table of one variant's steps: rate asked,
// achieved, missed, errors, p99 handshake, p99 total from the intended
// start, and the verdict.
func Capacity(c *results.Capacity) Table {
	t := Table{
		Header: []string{"step", "phase", "asked/s", "achieved/s", "missed", "errors", "p99 handshake ms", "p99 from intended ms", "verdict"},
		Right:  []bool{true, false, true, true, true, true, true, true, false},
	}
	for i, rep := range c.Steps {
		st, g := rep.Step, &rep.Total
		verdict := "pass"
		if !st.Pass {
			verdict = "FAIL: " + st.Why
		}
		t.Add(fmt.Sprint(i+1), st.Phase, format.Count(uint64(math.Round(st.Rate))), format.Rate(g.Rate()), format.Share(g.MissedShare()),
			format.Share(g.ErrorShare()), format.QuantileMillis(g.Latency.Handshake, 99), format.QuantileMillis(g.Latency.Intended, 99), verdict)
	}
	return t
}

// CapacityIntro says how the search went, for the reports.
func CapacityIntro(s *results.CapacitySpec) string {
	return fmt.Sprintf("per variant, the highest rate with %s, errors at most %s and at most %s of starts missed; steps from %s/s ×%s, then bisection to %s",
		analysis.TargetWords(s), format.Share(s.MaxErrors), format.Share(s.MaxMissed), format.Count(uint64(math.Round(s.From))),
		strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", s.Factor), "0"), "."), format.Share(s.Resolution))
}

// Speed lays the speed table out for the text and Markdown reports.
func Speed(t *analysis.SpeedTable) Table {
	tb := Table{Header: t.Header()}
	for i := range tb.Header {
		tb.Right = append(tb.Right, i >= 2)
	}
	for i := range t.Rows {
		tb.Add(t.Cells(&t.Rows[i])...)
	}
	return tb
}

// Thresholds lays the threshold checks out once, for the text and
// Markdown reports: verdict, threshold, variant, measured.
func Thresholds(cs []analysis.ThresholdCheck) Table {
	tb := Table{Header: []string{"verdict", "threshold", "variant", "measured"}, Right: []bool{false, false, false, true}}
	for i := range cs {
		c := &cs[i]
		verdict := "pass"
		if !c.Passed {
			verdict = "CROSSED"
		}
		tb.Add(verdict, c.Threshold.Expr, c.Variant, c.Shown())
	}
	return tb
}
