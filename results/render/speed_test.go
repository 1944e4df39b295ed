package render

import (
	"bytes"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

// TestWriteTextSpeed checks the crypto speed section's figures and
// deltas directly, so that a careless -update cannot bless a wrong one.
func TestWriteTextSpeed(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(fixture.SpeedRun())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	_, section, ok := strings.Cut(out, "\n== crypto speed")
	if !ok {
		t.Fatalf("no crypto speed section in:\n%s", out)
	}
	for _, want := range []string{
		`, baseline "baseline"`,
		"speed[0]: bssl speed -filter RSA -timeout 6",
		"[0] RSA 2048 signing             ops/s           801.2  1,602.4  +100.00 %",
		"[0] RSA 2048 verify (fresh key)  ops/s        28,806.3        -          -",
		"[1] sms4-cbc 16 bytes            bytes/s  26,448,180.0        -          -",
		`variant kae: speed[1] "gmssl speed -elapsed -evp sms4-cbc": "server speed command`,
	} {
		if !strings.Contains(section, want) {
			t.Errorf("crypto speed section\n%s\nwant it to contain %q", section, want)
		}
	}
	b.Reset()
	if err := WriteText(&b, analysis.Analyze(fixture.CompareRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section:\n%s", b.String())
	}
}

// TestWriteMarkdownSpeed checks the Markdown crypto speed section's
// cells directly, so that a careless -update cannot bless a wrong one.
func TestWriteMarkdownSpeed(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, analysis.Analyze(fixture.SpeedRun())); err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(b.String(), "\n## Crypto speed\n")
	if !ok {
		t.Fatalf("no crypto speed section in:\n%s", b.String())
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, want := range []string{
		"baseline **baseline**",
		"- speed\\[0\\]: bssl speed -filter RSA -timeout 6\n",
		"| figure | unit | baseline | kae | Δ% kae |\n|---|---|---:|---:|---:|\n",
		"| \\[0\\] RSA 2048 signing | ops/s | 801.2 | 1,602.4 | +100.00 % |\n",
		"| \\[1\\] sms4-cbc 16384 bytes | bytes/s | 35,662,510.0 | - | - |\n",
		"**FAILED:** variant kae, speed\\[1\\]",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("crypto speed section\n%s\nwant it to contain %q", section, want)
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, analysis.Analyze(fixture.CompareRun())); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section:\n%s", b.String())
	}
}
