package main

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios"
)

// stringsFlag collects a repeated string flag.
type stringsFlag []string

func (s *stringsFlag) String() string { return strings.Join(*s, ", ") }

func (s *stringsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// runThresholds converts the plan's resolved thresholds into the form a
// run stores and checks (the two types have the same fields, so that
// results need not import scenarios).
func runThresholds(ts []scenarios.Threshold) []results.Threshold {
	if len(ts) == 0 {
		return nil
	}
	out := make([]results.Threshold, len(ts))
	for i, t := range ts {
		out[i] = results.Threshold(t)
	}
	return out
}

// thresholdError is errThreshold naming the crossed thresholds of r; nil
// when none was crossed.
func thresholdError(r *results.Run) error {
	lines := results.CrossedLines(r)
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", errThreshold, strings.Join(lines, "; "))
}
