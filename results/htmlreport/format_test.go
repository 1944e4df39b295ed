package htmlreport

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		v        float64
		decimals int
		want     string
	}{
		{0, 1, "0.0"},
		{999.95, 1, "1,000.0"},
		{120500, 1, "120,500.0"},
		{-1234567.25, 2, "-1,234,567.25"},
		{-0.01, 1, "0.0"},
		{2500, -1, "2,500"},
		{0.5, -1, "0.5"},
		{math.NaN(), 1, dash},
		{math.Inf(1), 1, dash},
	}
	for _, tt := range tests {
		if got := number(tt.v, tt.decimals); got != tt.want {
			t.Errorf("number(%v, %d) = %q, want %q", tt.v, tt.decimals, got, tt.want)
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
		{"log ms over two decades", logMsTicks{}, 0.1, 10, "0.1 0.2 0.5 1 2 5 10", 19},
		{"log ms over zero", logMsTicks{}, 0, 10, "", 0},
		{"rates in thousands", rateTicks{}, 0, 200000, "0 100k 200k", -1},
		{"small rates", rateTicks{}, 0, 2.5, "0 1 2", -1},
		{"percent", percentTicks{}, 0, 100, "0 % 20 % 40 % 60 % 80 % 100 %", 11},
		{"fraction", fractionTicks{}, 0, 1, "0 % 50 % 90 % 100 %", 12},
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
