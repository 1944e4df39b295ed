package htmlreport

import (
	"strings"
	"testing"
)

// TestOpenLoopTable: a variant that scheduled its starts has a row of the
// open-loop table from the catalogue (starts due, missed, the latencies
// from the intended start), one without a histogram dashes; a closed
// loop has no table.
func TestOpenLoopTable(t *testing.T) {
	if strings.Contains(write(t, fixtureRun()), `id="open-loop-table"`) {
		t.Error("a closed-loop run has an open-loop table")
	}
	r := fixtureRun()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			total := &r.Variants[i].Reps[j].Total
			total.Scheduled, total.Missed = total.Requests+uint64(5*j), uint64(5*j)
			if i > 0 {
				total.Latency.Intended = total.Latency.Total
			}
		}
	}
	doc := write(t, r)
	for _, want := range []string{
		`<th class="num">starts due</th><th class="num">missed</th><th class="num">p50 from intended</th>`,
		`<tr><td class="name">baseline</td><td class="num">482,005</td><td class="num">5</td><td class="num">—</td><td class="num">—</td><td class="num">—</td></tr>`,
		`<tr><td class="name">kae-soft-0</td><td class="num">604,006</td><td class="num">5</td><td class="num">2.287</td><td class="num">4.159</td><td class="num">4.223</td></tr>`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}
