package results

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestWriteTextGolden(t *testing.T) {
	tests := []struct {
		name string
		run  *Run
	}{
		{"single", singleRun()},
		{"compare", compareRun()},
		{"interrupted", interruptedRun()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, tt.run); err != nil {
				t.Fatalf("WriteText: %v", err)
			}
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./results -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("WriteText output differs from %s (go test ./results -update refreshes it)\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// TestWriteTextContent checks facts in the report that must hold whatever
// the layout, so that a careless -update cannot bless a wrong number.
func TestWriteTextContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, compareRun()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"baseline  baseline\n",
		"-- kae, repetition 2\n",
		"env KAE_GO_SOFT_RATIO=33 OPENSSL_CONF=/home/openssl.cnf\n",
		// baseline rep 1: 120,000 + 120,680 requests over [t0, t0+2.001 s].
		"240,680  (120,279.9 req/s)",
		`  connect    2  first: "dial tcp 127.0.0.1:8443: connect: connection refused"`,
		"status       2xx 362,299  5xx 1\n",
		"== comparison",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\nreport:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("report contains an escape sequence")
	}
	for i, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d has trailing spaces: %q", i+1, line)
		}
	}

	// One variant, one repetition: no comparison table.
	b.Reset()
	if err := WriteText(&b, singleRun()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "comparison") {
		t.Errorf("single-repetition report has a comparison table:\n%s", b.String())
	}
}

func TestWriteTextUnknownBaseline(t *testing.T) {
	r := compareRun()
	r.Baseline = "nope"
	var b bytes.Buffer
	err := WriteText(&b, r)
	if err == nil || !strings.Contains(err.Error(), `baseline "nope"`) {
		t.Errorf("WriteText with unknown baseline: err = %v, want one naming baseline \"nope\"", err)
	}
	if b.Len() != 0 {
		t.Errorf("WriteText wrote %d bytes before failing, want 0", b.Len())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteTextWriterError(t *testing.T) {
	err := WriteText(failWriter{}, singleRun())
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteText to a failing writer: err = %v, want it to wrap \"disk full\"", err)
	}
}
