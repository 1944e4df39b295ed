package analysis

import (
	"errors"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
	"strings"
	"testing"
	"time"
)

// TestCheckRep checks the failure verdict of a repetition at its edges:
// no success at all, errors just below, at and above the limit, and a
// 5xx-only window, which has responses but no success.
func TestCheckRep(t *testing.T) {
	win := results.Window{Start: fixture.T0, End: fixture.T0.Add(time.Second)}
	mk := func(requests, status5xx, connectErrs uint64, unanswered results.Stages) *results.Group {
		g := &results.Group{Window: win}
		g.Requests = requests
		for range status5xx {
			g.Errors.Add(results.ErrStatus, errors.New("status 503"))
		}
		for range connectErrs {
			g.Errors.Add(results.ErrConnect, errors.New("refused"))
		}
		g.Outside.Unanswered = unanswered
		return g
	}
	for _, tc := range []struct {
		name      string
		g         *results.Group
		maxErrors float64
		want      string // "" = not failed; else a substring of the reason
	}{
		{"healthy", mk(1000, 0, 0, results.Stages{}), 0.01, ""},
		{"silent listener", mk(0, 0, 0, results.Stages{Handshake: 4}), 0.01, "unanswered at the window's end: 4 (connect 0, handshake 4, response 0)"},
		{"nothing at all", mk(0, 0, 0, results.Stages{}), 0.01, "no request ended at all"},
		{"only 5xx", mk(50, 50, 0, results.Stages{}), 0.01, "no request succeeded in the window (50 errors)"},
		// 10 errors of 1000 attempts: exactly 1 %, not more than it.
		{"at the limit", mk(990, 0, 10, results.Stages{}), 0.01, ""},
		{"above the limit", mk(989, 0, 11, results.Stages{}), 0.01, "errors were 1.1 % of the window's attempts, more than max_errors 1 %"},
		// 5xx responses are errors: 20 of 1000 responses.
		{"5xx above the limit", mk(1000, 20, 0, results.Stages{}), 0.01, "errors were 2 % of the window's attempts"},
		{"looser limit", mk(900, 0, 100, results.Stages{}), 0.2, ""},
		{"no error tolerated", mk(999, 0, 1, results.Stages{}), 0, "errors were 0.1 % of the window's attempts, more than max_errors 0 %"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := notes.Failure(CheckRep(tc.g, tc.maxErrors)).String()
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("CheckRep = %q, want %q", got, tc.want)
			}
		})
	}
}
