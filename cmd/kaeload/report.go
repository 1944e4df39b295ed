package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kaeload/kaeload/metrics"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/render"
)

var reportCommand = command{name: "report", summary: "re-render a stored run as text, md, csv, json, html or openmetrics",
	synopsis: "[--format text|md|csv|summary|json|html|openmetrics] [-o FILE] RUN", help: `
Re-renders a stored run (a run directory or its run.json). summary is the
JSON summary of "run --format json"; json writes run.json back unchanged;
html is the self-contained report; openmetrics is the timeline for
"promtool tsdb create-blocks-from openmetrics". Fields: docs/outputs.md.

Examples:
  kaeload report runs/20261202T134500Z-nginx-kae
  kaeload report runs/20261202T134500Z-nginx-kae --format summary | jq '.variants[].comparison.significant'
  kaeload report runs/20261202T134500Z-nginx-kae --format html -o kae.html`,
	min: 1, max: 1, what: "one run",
	setup: func(fs *flag.FlagSet) body {
		format := fs.String("format", "text", "output format: text, md, csv, summary (the JSON summary), json (run.json), html or openmetrics (the timeline with timestamps, for promtool tsdb create-blocks-from openmetrics)")
		output := fs.String("o", "", "write to this file (atomically: a temporary file renamed into place) instead of standard output")
		html := fs.String("html", "", "same as --format html -o FILE")
		return func(_ context.Context, s stdio, pos []string) error {
			if *html != "" {
				*format, *output = "html", *html
			}
			i, err := oneOf(fs, "--format", *format, "text", "md", "csv", "summary", "json", "html", "openmetrics")
			if err != nil {
				return err
			}
			runJSON := func(w io.Writer, m *analysis.Report) error { return results.WriteJSON(w, m.Run) }
			write := []renderer{render.WriteText, render.WriteMarkdown, render.WriteCSV, render.WriteSummaryJSON,
				runJSON, htmlreport.Write, metrics.WriteOpenMetrics}[i]
			r, err := readRun(pos[0])
			if err != nil {
				return err
			}
			return writeOutput(*output, s.out, func(w io.Writer) error { return write(w, analysis.Analyze(r)) })
		}
	}}

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

// parseLimitPct reads "5%" or "0.05" as a percentage, 0 to 100.
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
