package htmlreport

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestWriteSpeed checks the crypto speed section: present only when a
// variant ran speed commands, the text report's figures and Δ % against
// the baseline, failed commands with their error, and still no external
// reference in the page.
func TestWriteSpeed(t *testing.T) {
	r := fixtureRun()
	bssl := "bssl speed -filter RSA -timeout 6"
	gm := "gmssl speed -elapsed -evp sms4-cbc"
	r.Variants[0].Speed = []results.SpeedRun{
		{Command: bssl, Results: []results.SpeedResult{
			{Algorithm: "RSA 2048", Operation: "signing", Value: 801.2, Unit: "ops/s"},
			{Algorithm: "RSA 2048", Operation: "verify (fresh key)", Value: 28806.3, Unit: "ops/s"},
		}},
		{Command: gm, Results: []results.SpeedResult{{Algorithm: "sms4-cbc", Block: 16, Value: 26448180, Unit: "bytes/s"}}},
	}
	r.Variants[2].Speed = []results.SpeedRun{
		{Command: bssl, Results: []results.SpeedResult{{Algorithm: "RSA 2048", Operation: "signing", Value: 1602.4, Unit: "ops/s"}}},
		{Command: gm, Error: `speed command failed: exit status 1 <see log> https://example.com/x`},
	}
	doc := write(t, r)
	root, err := parseStrict(doc)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if h := root.byID("speed"); h == nil || strings.TrimSpace(h.allText()) != "Crypto speed" {
		t.Fatalf("no <h2 id=speed>Crypto speed</h2> in the report")
	}
	tbl := root.byID("speed-table")
	if tbl == nil {
		t.Fatalf("no speed table")
	}
	var header []string
	for _, th := range tbl.find("th") {
		header = append(header, strings.TrimSpace(th.allText()))
	}
	if got, want := strings.Join(header, "|"), "figure|unit|baseline|kae-soft-0|kae-soft-33|Δ% kae-soft-0|Δ% kae-soft-33"; got != want {
		t.Errorf("speed header = %q, want %q", got, want)
	}
	for _, tt := range []struct{ first, want string }{
		// 1602.4 / 801.2 = 2: +100 %; kae-soft-0 ran no speed command.
		{"[0] RSA 2048 signing", "[0] RSA 2048 signing|ops/s|801.2|—|1,602.4|—|+100.00 %"},
		{"[1] sms4-cbc 16 bytes", "[1] sms4-cbc 16 bytes|bytes/s|26,448,180.0|—|—|—|—"},
	} {
		if got := tableRow(tbl, tt.first); got != tt.want {
			t.Errorf("speed row %q = %q, want %q", tt.first, got, tt.want)
		}
	}
	fail := root.byID("speed-failures")
	if fail == nil {
		t.Fatalf("no table of failed speed commands")
	}
	if got, want := tableRow(fail, "kae-soft-33"), "kae-soft-33|speed[1] "+gm+"|speed command failed: exit status 1 <see log> https://example.com/x"; got != want {
		t.Errorf("failed speed row = %q, want %q", got, want)
	}
	// An error message is text, not markup.
	if strings.Contains(doc, "<see log>") || !strings.Contains(doc, "&lt;see log&gt;") {
		t.Errorf("a speed error message was not escaped")
	}
	// Without a URL in the data, the page with a speed section has none.
	r.Variants[2].Speed[1].Error = "speed command failed: exit status 1"
	if bad := externalRefs(write(t, r)); len(bad) > 0 {
		t.Errorf("report with speed results references external resources: %q", bad)
	}

	if doc := write(t, fixtureRun()); strings.Contains(doc, `id="speed"`) || strings.Contains(doc, "Crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section")
	}
}
