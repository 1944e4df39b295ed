package format

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"strings"
	"testing"
)

func TestFormatFloat(t *testing.T) {
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
		{math.NaN(), 1, Missing},
		{math.Inf(1), 1, Missing},
		{math.Inf(-1), 1, Missing},
	}
	for _, tt := range tests {
		if got := Float(tt.v, tt.decimals); got != tt.want {
			t.Errorf("Float(%v, %d) = %q, want %q", tt.v, tt.decimals, got, tt.want)
		}
	}
}

func TestFormatters(t *testing.T) {
	h := fixture.HistUS(fixture.Seq(100, 100, 1)...) // 0.100 … 0.199 ms, recorded exactly
	tests := []struct {
		name, got, want string
	}{
		{"count 0", Count(0), "0"},
		{"count 999", Count(999), "999"},
		{"count 1000", Count(1000), "1,000"},
		{"count 1234567", Count(1234567), "1,234,567"},
		{"rate", Rate(181411.04), "181,411.0"},
		{"rate NaN", Rate(math.NaN()), Missing},
		{"number whole", Number(240000), "240,000"},
		{"number negative whole", Number(-1500), "-1,500"},
		{"number fraction", Number(2.25), "2.2"},
		{"percent", Percent(0.975), "97.5 %"},
		{"percent NaN", Percent(math.NaN()), Missing},
		{"delta up", Delta(50.2066), "+50.21 %"},
		{"delta down", Delta(-3), "-3.00 %"},
		{"delta at the cap", Delta(10000), "+10000.00 %"},
		{"delta beyond the cap", Delta(356839817.03), "> +10,000 %"},
		{"delta below the cap", Delta(-20000), "< -10,000 %"},
		{"delta +Inf", Delta(math.Inf(1)), "> +10,000 %"},
		{"delta NaN", Delta(math.NaN()), Missing},
		{"bound", Bound(4.8), "±4.80 %"},
		{"bound beyond the cap", Bound(356839817.03), "±>10,000 %"},
		{"mde beyond the cap", MDE(stats.Comparison{HasMDE: true, MDEPct: 356839817.03}), "±>10,000 %"},
		{"verdict beyond the cap", VerdictWords(stats.Comparison{Test: stats.TestStudentLog, HasMDE: true, MDEPct: 180.85, HasBound: true, EquivalenceBoundPct: 356839817.03}),
			"inconclusive: could be up to ±>10,000 %; these repetitions detect ±180.85 %"},
		{"millis", Millis(2591), "2.591"},
		{"p50", QuantileMillis(h, 50), "0.149"},
		{"p50 empty", QuantileMillis(results.NewHistogram(), 50), Missing},
		{"p50 nil", QuantileMillis(nil, 50), Missing},
		{"max", QuantileMillis(h, 100), "0.199"},
		{"max empty", QuantileMillis(&results.Histogram{}, 100), Missing},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestPValue(t *testing.T) {
	tests := []struct {
		c      stats.Comparison
		pValue string
	}{
		{stats.Comparison{Test: stats.TestWelchLog, PValue: 0.0012, Significant: true}, "0.0012"},
		{stats.Comparison{Test: stats.TestWelchLog, PValue: 0.00001, Significant: true}, "<0.0001"},
		{stats.Comparison{Test: stats.TestWelchLog, PValue: 0.317}, "0.3170"},
		{stats.Comparison{Test: stats.TestZeroVariance, PValue: 0, Significant: true}, "<0.0001"},
		{stats.Comparison{Test: stats.TestZeroVariance, PValue: 1}, "1.0000"},
		{stats.Comparison{Test: stats.TestNone}, Missing},
		{stats.Comparison{Test: stats.TestCannot, Why: "a rate is zero"}, Missing},
		{stats.Comparison{Test: stats.TestStudentLog, PValue: 0.03, PAdjusted: 0.09, Family: 3}, "0.0300"},
		{stats.Comparison{Test: stats.TestStudentLog, PValue: 0.001, PAdjusted: 0.003, Family: 3, Significant: true}, "0.0010"},
	}
	for _, tt := range tests {
		if got := PValue(tt.c); got != tt.pValue {
			t.Errorf("PValue(%+v) = %q, want %q", tt.c, got, tt.pValue)
		}
	}
}

func TestStatusLine(t *testing.T) {
	tests := []struct {
		status [6]uint64
		want   string
	}{
		{[6]uint64{}, "none"},
		{[6]uint64{0, 0, 1000}, "2xx 1,000"},
		{[6]uint64{1, 0, 1000, 0, 0, 3}, "2xx 1,000  5xx 3  other 1"},
	}
	for _, tt := range tests {
		c := results.Counts{Status: tt.status}
		if got := StatusLine(&c); got != tt.want {
			t.Errorf("StatusLine(%v) = %q, want %q", tt.status, got, tt.want)
		}
	}
}

func TestPlain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "(no message)"},
		{"exit status 1; last output:\n    cat: /x: No such file", "exit status 1; last output: cat: /x: No such file"},
		{"does not match the pattern `send_cnt:\\s*(\\d+)`", "does not match the pattern `send_cnt:\\s*(\\d+)`"},
		{strings.Repeat("é", 200), strings.Repeat("é", 150) + "…"},
	} {
		if got := Plain(tc.in); got != tc.want {
			t.Errorf("Plain(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
