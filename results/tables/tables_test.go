package tables

import (
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
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

// TestPlateauLineNotJudged: a sweep whose values were measured once each
// says it judged nothing, names no plateau, and marks no variant.
func TestPlateauLineNotJudged(t *testing.T) {
	r := fixture.SweepRun()
	for i := range r.Variants {
		r.Variants[i].Reps = r.Variants[i].Reps[:1]
	}
	s := analysis.Analyze(r).Summary
	if len(s.Sweeps) != 1 {
		t.Fatalf("%d sweeps, want 1", len(s.Sweeps))
	}
	sw := &s.Sweeps[0]
	got := PlateauLine(s, sw)
	if want := "not judged: no two values of ratio have 2+ repetitions each"; !strings.HasPrefix(got, want) || strings.Contains(got, "plateau:") {
		t.Errorf("PlateauLine = %q, want it to begin %q and name no plateau", got, want)
	}
	if want := "the highest mean is 33)"; !strings.HasSuffix(got, want) {
		t.Errorf("PlateauLine = %q, want it to end %q", got, want)
	}
	for _, i := range sw.Variants {
		if v := &s.Variants[i]; v.Best || v.Plateau {
			t.Errorf("variant %s marked best %v plateau %v, measured once", v.Name, v.Best, v.Plateau)
		}
	}
}

// TestPlateauLineNotJudgedOneTwice: a run interrupted in its second round
// measured one value (the slowest) twice and the others once. No pair
// can be tested, and the line does not call the one value measured twice
// the highest mean: it says that value alone has 2+ repetitions.
func TestPlateauLineNotJudgedOneTwice(t *testing.T) {
	r := fixture.SweepRun()
	for i := range r.Variants {
		keep := 1
		if r.Variants[i].Name == "kae-soft-100" {
			keep = 2
		}
		r.Variants[i].Reps = r.Variants[i].Reps[:keep]
	}
	s := analysis.Analyze(r).Summary
	got := PlateauLine(s, &s.Sweeps[0])
	if want := "not judged: no two values of ratio have 2+ repetitions each"; !strings.HasPrefix(got, want) {
		t.Errorf("PlateauLine = %q, want it to begin %q", got, want)
	}
	if want := "(only 100 has 2+ repetitions)"; !strings.HasSuffix(got, want) || strings.Contains(got, "highest mean") {
		t.Errorf("PlateauLine = %q, want it to end %q and name no highest mean", got, want)
	}
}

// TestTCPWordsReasonOnce: a host whose counters cannot be read gives the
// reason once, not once per counter; counters missing for two reasons
// give each once, with their counters.
func TestTCPWordsReasonOnce(t *testing.T) {
	const why = "the server (10.0.0.2:443) is on a machine kaeload does not reach: give server.host an ssh:// URL to read its counters"
	names := []string{"ListenOverflows", "ListenDrops", "TCPSynRetrans"}
	all := &diagnosis.HostCounts{Name: "10.0.0.2", Server: true, Counters: names, Values: map[string]uint64{},
		Unavailable: map[string]string{"ListenOverflows": why, "ListenDrops": why, "TCPSynRetrans": why}}
	if got, want := TCPWords(all), "the server: every counter not available ("+why+")"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	some := &diagnosis.HostCounts{Name: "local", Server: true, Counters: names, Values: map[string]uint64{"TCPSynRetrans": 3},
		Unavailable: map[string]string{"ListenOverflows": "a", "ListenDrops": "b"}}
	if got, want := TCPWords(some), "the server: TCPSynRetrans +3; not available: ListenOverflows (a); ListenDrops (b)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestPlateauLineOnceOnPlateau: a value measured once stays on the
// plateau (it cannot be excluded) and is never Top beside tested values,
// so the line names Top as the highest mean of the values with 2+
// repetitions, not of them all.
func TestPlateauLineOnceOnPlateau(t *testing.T) {
	r := fixture.SweepRun()
	for i := range r.Variants {
		if r.Variants[i].Name == "kae-soft-10" {
			r.Variants[i].Reps = r.Variants[i].Reps[:1]
		}
	}
	s := analysis.Analyze(r).Summary
	got := PlateauLine(s, &s.Sweeps[0])
	if want := "the highest mean of those with 2+ repetitions is 33;"; !strings.HasPrefix(got, "plateau: ") || !strings.Contains(got, want) {
		t.Errorf("PlateauLine = %q, want a plateau that says %q", got, want)
	}
}

// TestRepTables: Errors has a row per repetition and class that occurred;
// negotiated sets come most frequent first.
func TestRepTables(t *testing.T) {
	if got := ByCount(map[string]uint64{"b": 2, "a": 2, "c": 5}); strings.Join(got, " ") != "c a b" {
		t.Errorf("ByCount = %v, want c a b (most first, ties by key)", got)
	}
	m := analysis.Analyze(fixture.CompareRun())
	errs := 0
	for _, v := range m.Run.Variants {
		for _, r := range v.Reps {
			for _, ec := range r.Total.Errors {
				if ec.Count > 0 {
					errs++
				}
			}
		}
	}
	if got := len(Errors(m).Rows); got != errs || errs == 0 {
		t.Errorf("Errors has %d rows, want one per repetition and class that occurred (%d)", got, errs)
	}
	rows := Negotiated(m).Rows
	if len(rows) <= len(m.Run.Variants) {
		t.Fatalf("Negotiated: %v, want a variant with two sets", rows)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i][0] == rows[i-1][0] && len(rows[i][2]) > len(rows[i-1][2]) {
			t.Errorf("Negotiated: %v before %v, want the most frequent first", rows[i-1], rows[i])
		}
	}
}

// TestSpeed: a column per variant, then Δ % against the baseline; "-" where a figure is missing.
func TestSpeed(t *testing.T) {
	tb := Speed(analysis.Analyze(fixture.SpeedRun()).Speed)
	if got, want := strings.Join(tb.Header, "|"), "figure|unit|baseline|kae|Δ% kae"; got != want {
		t.Errorf("header = %q, want %q", got, want)
	}
	if got, want := strings.Join(tb.Rows[2], "|"), "[1] sms4-cbc 16 bytes|bytes/s|26,448,180.0|-|-"; got != want {
		t.Errorf("cells = %q, want %q", got, want)
	}
}
