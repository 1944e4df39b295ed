package main

import (
	"strings"
	"testing"
)

// TestHelpFitsAScreen: every command's --help, and the top-level help,
// is at most 40 lines, and those that have a reference page name docs/.
func TestHelpFitsAScreen(t *testing.T) {
	withDocs := map[string]bool{"": true, "run": true, "validate": true, "report": true, "compare": true, "plan-reps": true}
	for _, c := range append(commands, command{}) {
		args := []string{c.name, "--help"}
		if c.name == "" {
			args = []string{"help"}
		}
		out, errOut, code := runArgs(args...)
		if code != 0 || errOut != "" {
			t.Fatalf("kaeload %v: exit %d, stderr %q", args, code, errOut)
		}
		if n := strings.Count(out, "\n"); n > 40 {
			t.Errorf("kaeload %v: %d lines, want at most 40:\n%s", args, n, out)
		}
		if withDocs[c.name] && !strings.Contains(out, "docs/") {
			t.Errorf("kaeload %v names no page of docs/:\n%s", args, out)
		}
	}
}

// TestClip: a long usage is cut at a clause boundary, a parenthesis it
// opened is closed, and a short one is left alone.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"the measured window, a duration (default 10s; a bare number is seconds)", 50, "the measured window, a duration (default 10s …)"},
		{"one, two, three, four, five, six", 20, "one, two, three …"},
		{"aaaaaaaaaa bbbbbbbbbb cccccccccc", 25, "aaaaaaaaaa bbbbbbbbbb …"},
	} {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
