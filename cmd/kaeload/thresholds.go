package main

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results/analysis"
)

// stringsFlag collects a repeated string flag.
type stringsFlag []string

func (s *stringsFlag) String() string { return strings.Join(*s, ", ") }

func (s *stringsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// thresholdError is errThreshold naming the crossed thresholds of m; nil
// when none was crossed (Report.Crossed).
func thresholdError(m *analysis.Report) error {
	lines := m.Crossed.Strings()
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", errThreshold, strings.Join(lines, "; "))
}
