package htmlreport

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/kaeload/kaeload/results/format"
)

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{format.Rate(math.NaN()), dash},
		{format.QuantileMillis(nil, 99), dash},
		{format.Rate(-0.01), "0.0"},
		{format.Count(1234), "1,234"},
		{"-1", "-1"},
	}
	for _, tt := range tests {
		if got := cell(tt.in); got != tt.want {
			t.Errorf("cell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// tickLabels returns the labels of the labelled ticks, space-separated.
func tickLabels(ts []plot.Tick) string {
	var parts []string
	for _, t := range ts {
		if t.Label != "" {
			parts = append(parts, t.Label)
		}
	}
	return strings.Join(parts, " ")
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name   string
		ticker plot.Ticker
		lo, hi float64
		want   string
		n      int // number of ticks, labelled or not
	}{
		{"log ms over two decades", logMsTicks, 0.1, 10, "0.1 0.2 0.5 1 2 5 10", 19},
		{"log ms over zero", logMsTicks, 0, 10, "", 0},
		{"rates in thousands", rateTicks, 0, 200000, "0 100k 200k", -1},
		{"small rates", rateTicks, 0, 2.5, "0 1 2", -1},
		{"percent", percentTicks, 0, 100, "0 % 20 % 40 % 60 % 80 % 100 %", 11},
		{"fraction", fractionTicks, 0, 1, "0 % 50 % 90 % 100 %", 12},
	}
	for _, tt := range tests {
		ts := tt.ticker.Ticks(tt.lo, tt.hi)
		if got := tickLabels(ts); got != tt.want {
			t.Errorf("%s: labels %q, want %q", tt.name, got, tt.want)
		}
		if tt.n >= 0 && len(ts) != tt.n {
			t.Errorf("%s: %d ticks, want %d", tt.name, len(ts), tt.n)
		}
	}
}

// TestPlanTextAsWritten: a stored plan's "&", "<" and ">" (escaped by encoding/json) show as written,
// and an escape that was part of a string stays.
func TestPlanTextAsWritten(t *testing.T) {
	stored, err := json.Marshal(map[string]string{"url": `/a?x=1&y=<2>`, "cmd": `echo \u0026`})
	if err != nil {
		t.Fatal(err)
	}
	got := planText(stored)
	for _, want := range []string{`"url": "/a?x=1&y=<2>"`, `"cmd": "echo \\u0026"`} {
		if !strings.Contains(got, want) {
			t.Errorf("planText = %s, want it to hold %s", got, want)
		}
	}
}
