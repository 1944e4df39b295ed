package tables

import (
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"testing"
)

func TestBar(t *testing.T) {
	tests := []struct {
		name string
		st   stats.Stats
		want string
	}{
		{"half", stats.Stats{N: 1, Mean: 50, CI95Low: 50, CI95High: 50}, "|#####     |"},
		{"ci", stats.Stats{N: 3, Mean: 50, CI95Low: 30, CI95High: 80, HasCI: true}, "|###==---  |"},
		{"full", stats.Stats{N: 3, Mean: 100, CI95Low: 85, CI95High: 130, HasCI: true}, "|#########=|"},
		{"ci below zero", stats.Stats{N: 2, Mean: 10, CI95Low: -40, CI95High: 60, HasCI: true}, "|=-----    |"},
		{"empty", stats.Stats{}, "|          |"},
	}
	for _, tt := range tests {
		if got := bar(tt.st, 100, 10); got != tt.want {
			t.Errorf("%s: bar(%+v) = %q, want %q", tt.name, tt.st, got, tt.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{181257.8, 200000}, {120000, 120000}, {120001, 150000}, {0.7, 0.8}, {9, 10}, {0, 0}, {-5, 0},
	}
	for _, tt := range tests {
		if got := niceCeil(tt.in); !fixture.Near(got, tt.want, 1e-12) {
			t.Errorf("niceCeil(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
