package main

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// stringsFlag collects a repeated string flag.
type stringsFlag []string

func (s *stringsFlag) String() string { return strings.Join(*s, ", ") }

func (s *stringsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
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
