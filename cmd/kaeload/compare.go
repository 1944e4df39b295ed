package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
)

var compareCommand = command{name: "compare", summary: "compare stored runs variant by variant (Δ %, significance)",
	synopsis: "RUN_A RUN_B [RUN…]", help: `
Lines up the variants of the same name across stored runs against the
first: mean req/s, Δ % and whether the difference is beyond the noise.
With --fail-if-slower 5% the exit status is 99 when a variant of a later
run is significantly slower (Holm over every variant and run) by more
than 5 %. See docs/statistics.md.

Examples:
  kaeload compare runs/20261125T100000Z-nginx-kae runs/20261202T100000Z-nginx-kae
  kaeload compare OLD NEW --fail-if-slower 5%`,
	setup: func(fs *flag.FlagSet) body {
		slower := fs.String("fail-if-slower", "", "exit 99 when a variant got significantly slower than the first run by more than this (5% or 0.05)")
		return func(_ context.Context, s stdio, pos []string) error {
			limit, err := -1.0, error(nil)
			if *slower != "" {
				if limit, err = parseLimitPct(*slower); err != nil {
					return usageError(fmt.Errorf("compare: --fail-if-slower %q: %v", *slower, err))
				}
			}
			if err := wantArgs(fs, pos, 2, -1, "at least two runs"); err != nil {
				return err
			}
			var runs []*results.Run
			var labels []string
			for _, p := range pos {
				r, err := readRun(p)
				if err != nil {
					return err
				}
				runs = append(runs, r)
				labels = append(labels, filepath.Base(strings.TrimSuffix(strings.TrimSuffix(p, "/"), "/run.json")))
			}
			rr, err := analysis.AnalyzeRuns(runs, labels) // once: the table and --fail-if-slower read it
			if err != nil {
				return err
			}
			if err := render.CompareRuns(s.out, rr); err != nil || limit < 0 {
				return err
			}
			if lines := analysis.SlowerRuns(rr, limit); len(lines) > 0 {
				return fmt.Errorf("%w: significantly slower by more than %g %%: %s", errThreshold, limit, strings.Join(lines.Strings(), "; "))
			}
			return nil
		}
	}}

// parseLimitPct reads a percentage ("5%") or a fraction ("0.05") as a
// percentage, 0 to 100.
func parseLimitPct(s string) (float64, error) {
	v, _, ok := readShare(s)
	if !ok {
		return 0, fmt.Errorf("want a percentage such as 5%% or a fraction such as 0.05")
	}
	if v *= 100; v < 0 || v >= 100 {
		return 0, fmt.Errorf("want 0 to 100 %%")
	}
	return v, nil
}
