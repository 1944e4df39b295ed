package tables

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"math"
	"strings"
)

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
