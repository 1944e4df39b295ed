package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/speed"
)

var speedCommand = command{name: "speed", summary: "print or compare saved openssl/GmSSL/bssl speed outputs (ops/s, ×, Δ %)",
	synopsis: "[--format text|csv|json] [-o FILE] [OUTPUT|-] [OUTPUT_B]", help: `
Prints the figures of a saved "openssl speed", GmSSL "speed" or "bssl
speed" output ("-" or none: standard input); with two, puts them side by
side with the ratio and Δ % of B against A. An output with no result is
an error. Formats recognised: docs/outputs.md.

Examples:
  openssl speed -seconds 3 rsa2048 ecdsap256 | kaeload speed
  kaeload speed before.txt after.txt
  kaeload speed after.txt --format csv -o after.csv`,
	setup: func(fs *flag.FlagSet) body {
		format := fs.String("format", "text", "output format: text, csv or json")
		output := fs.String("o", "", "write to this file (atomically) instead of standard output")
		return func(_ context.Context, s stdio, pos []string) error {
			if _, err := oneOf(fs, "--format", *format, "text", "csv", "json"); err != nil {
				return err
			}
			if len(pos) == 0 {
				pos = []string{"-"}
			}
			if err := wantArgs(fs, pos, 1, 2, "one or two outputs"); err != nil {
				return err
			}
			if len(pos) == 2 && pos[0] == "-" && pos[1] == "-" {
				return usageError(fmt.Errorf("speed: standard input can be only one of the two outputs"))
			}
			var sets [][]results.SpeedResult
			for _, p := range pos {
				rs, err := readSpeed(p, s.in)
				if err != nil {
					return err
				}
				sets = append(sets, rs)
			}
			return writeOutput(*output, s.out, func(w io.Writer) error {
				if len(sets) == 1 {
					return render.WriteSpeedResults(w, *format, sets[0])
				}
				return render.WriteSpeedPairs(w, *format, speedName(pos[0]), speedName(pos[1]), analysis.PairSpeed(sets[0], sets[1]))
			})
		}
	}}

// readSpeed parses one saved speed output ("-": stdin).
func readSpeed(path string, stdin io.Reader) ([]results.SpeedResult, error) {
	in := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("speed: %w", err)
		}
		defer f.Close()
		in = f
	}
	br := bufio.NewReaderSize(in, 16<<10)
	peek, _ := br.Peek(16 << 10)
	head := string(peek) // copied: for the error message
	rs, err := speed.ParseReader(br)
	if err != nil {
		return nil, fmt.Errorf("speed: %s: %w\n%s", speedName(path), err, firstLines(head, 5))
	}
	return rs, nil
}

func speedName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// firstLines quotes the first n non-blank lines of s, each cut to 120 bytes.
func firstLines(s string, n int) string {
	var quoted []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimRight(line, "\r"); strings.TrimSpace(line) == "" || len(quoted) == n {
			continue
		}
		if len(line) > 120 {
			line = line[:120] + "…"
		}
		q := strconv.Quote(line)
		quoted = append(quoted, "\n  | "+q[1:len(q)-1])
	}
	if quoted == nil {
		return "it is empty"
	}
	return "it begins:" + strings.Join(quoted, "")
}
