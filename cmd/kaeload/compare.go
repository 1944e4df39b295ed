package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kaeload/kaeload/results"
)

func compareCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "RUN_A RUN_B [RUN…]", `
Lines up the variants of the same name across stored runs, the first run
being the reference: mean req/s, Δ % against the first run, and whether the
difference is larger than the noise (Welch's t-test on the repetitions).
"Did last week's kernel update change anything?"

Example:
  kaeload compare results/20261125T100000Z-nginx-kae results/20261202T100000Z-nginx-kae`, stdout)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usageError(fmt.Errorf("compare: want at least two runs, got %d (see kaeload compare --help)", len(pos)))
	}
	var runs []*results.Run
	var labels []string
	for _, p := range pos {
		r, err := results.ReadRunFile(p)
		if err != nil {
			return err
		}
		runs = append(runs, r)
		labels = append(labels, filepath.Base(strings.TrimSuffix(strings.TrimSuffix(p, "/"), "/run.json")))
	}
	return results.CompareRuns(stdout, runs, labels)
}
