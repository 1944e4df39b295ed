package results_test

import (
	"math"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
)

// TestRecordSpread: the spread of the groups' starts and ends, and a
// total rate that sums the groups' own rates where their windows differ.
func TestRecordSpread(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	win := func(start, end time.Duration) results.Window {
		return results.Window{Start: t0.Add(start), End: t0.Add(end)}
	}
	groups := []results.Group{
		{Window: win(0, 2*time.Second), Counts: results.Counts{Requests: 200}},
		{Window: win(500*time.Millisecond, 2*time.Second+10*time.Millisecond), Counts: results.Counts{Requests: 150}},
		{}, // an empty window counts in neither
	}
	rep := results.NewRep(0, groups)
	rep.RecordSpread()
	if got, want := *rep.WindowSpread, (results.WindowSpread{Start: 500 * time.Millisecond, End: 10 * time.Millisecond}); got != want {
		t.Errorf("spread %+v, want %+v", got, want)
	}
	if got, want := rep.Total.Rate(), 100+150/1.51; math.Abs(got-want) > 1e-9 {
		t.Errorf("rate %v, want %v (the groups' own rates added)", got, want)
	}
	same := results.NewRep(0, []results.Group{groups[0], groups[0]})
	same.RecordSpread()
	if got, want := same.Total.Rate(), 200.0; *same.WindowSpread != (results.WindowSpread{}) || got != want {
		t.Errorf("one window: spread %+v, rate %v; want none, %v", *same.WindowSpread, got, want)
	}
}
