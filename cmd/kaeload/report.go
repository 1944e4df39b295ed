package main

import (
	"context"
	"flag"
	"io"

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
			write, err := pick(fs, *format,
				choice[renderer]{"text", render.WriteText}, choice[renderer]{"md", render.WriteMarkdown},
				choice[renderer]{"csv", render.WriteCSV}, choice[renderer]{"summary", render.WriteSummaryJSON},
				choice[renderer]{"json", func(w io.Writer, m *analysis.Report) error { return results.WriteJSON(w, m.Run) }},
				choice[renderer]{"html", htmlreport.Write}, choice[renderer]{"openmetrics", metrics.WriteOpenMetrics})
			if err != nil {
				return err
			}
			r, err := readRun(pos[0])
			if err != nil {
				return err
			}
			return writeOutput(*output, s.out, func(w io.Writer) error { return write(w, analysis.Analyze(r)) })
		}
	}}
