package htmlreport

import (
	"bytes"
	"encoding/xml"
	"html"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestProfileSection: a run that profiled its server gets the profile
// section: the stacked bars, one self-contained SVG flame graph per
// variant with a profile (well-formed XML, nothing fetched), the widest
// frame under the root the heaviest library's, and the reason for the
// variant without one.
func TestProfileSection(t *testing.T) {
	m := analysis.Analyze(fixture.ProfileRun())
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	sec := page[strings.Index(page, `<h2 id="profile">`):]
	svgs := regexp.MustCompile(`(?s)<svg class="(flame|profile-bars)".*?</svg>`).FindAllString(sec, -1)
	if got, want := len(svgs), 3; got != want {
		t.Fatalf("%d profile drawings, want %d (the bars and two flame graphs)", got, want)
	}
	for _, s := range svgs {
		d := xml.NewDecoder(strings.NewReader(s))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("drawing is not well-formed XML: %v\n%.300s", err, s)
			}
		}
		for _, u := range regexp.MustCompile(`(?:href|src)="([^"]*)"`).FindAllStringSubmatch(s, -1) {
			t.Errorf("drawing refers to %q: it must be self-contained", u[1])
		}
	}
	for _, want := range []string{"Flame graph: baseline", "Flame graph: kae", "profile not available: perf not found",
		"libcrypto.so.3: 66.7 %", m.Profile.OnLine().String()} {
		if !strings.Contains(html.UnescapeString(sec), want) {
			t.Errorf("the profile section lacks %q", want)
		}
	}
}
