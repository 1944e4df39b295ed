package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteMarkdownGolden(t *testing.T) {
	for name, r := range map[string]*results.Run{"sweep": fixture.SweepRun(), "interrupted": fixture.InterruptedRun(), "single": fixture.SingleRun(), "speed": fixture.SpeedRun(), "diagnosed": fixture.DiagnosedRun(), "servercpus": fixture.ServerCPUsRun()} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteMarkdown(&b, analysis.Analyze(r)); err != nil {
				t.Fatalf("WriteMarkdown: %v", err)
			}
			golden(t, filepath.Join("testdata", name+".md.golden"), b.Bytes())
		})
	}
}

// TestWriteMarkdownContent checks facts that must hold whatever the layout.
func TestWriteMarkdownContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, analysis.Analyze(fixture.SweepRun())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# kaeload run nginx-kae-sweep\n",
		// Every table row of the comparison has as many cells as its header.
		"| variant | n | mean req/s | client µs/req | ±stddev | 95 % CI | Δ% | p | p Holm | MDE | verdict | p99 handshake ms | errors | req/server cpu-s | Δ req/server cpu-s | notes |\n|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|\n",
		"| kae-soft-100 | 3 | 120,206.6 | 36.9 | 57.7 | 120,063.3 .. 120,350.0 | +0.02 % | 0.8177 | 0.8177 | ±0.48 % | no difference larger than ±2 % (equivalent; within ±0.25 %) |",
		"Holm over the run's 4 comparisons",
		"### Drift by round",
		// kae-soft-33: mean of 181,109.4, 180,909.5, 181,009.5 (362,400, 362,000, 362,200 requests / 2.001 s).
		"| kae-soft-33 | 3 | 181,009.5 |",
		`\* best of kae-soft-{ratio}`,
		"**WARNING:** variant kae-soft-0, repetition 1: CLIENT-BOUND: group 1 (CPUs 4-7) was 97 % busy",
		"```text\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q\nreport:\n%s", want, out)
		}
	}
	// Every table line has the same number of unescaped pipes as its header.
	var header int
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = 0
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if header == 0 {
			header = n
		} else if n != header {
			t.Errorf("table line has %d cells' pipes, header %d: %q", n, header, line)
		}
	}
}

func TestMdEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"kae-soft-33", "kae-soft-33"},
		{"a|b", `a\|b`},
		{"kae_ops *x* <b>", `kae\_ops \*x\* &lt;b>`},
	}
	for _, tt := range tests {
		if got := mdEscape(tt.in); got != tt.want {
			t.Errorf("mdEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
