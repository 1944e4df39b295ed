package results

import (
	"bytes"
	"strings"
	"testing"
)

// speedRun is compareRun with speed runs: RSA figures from bssl and an
// SM4 table from gmssl for both variants, one figure only the baseline
// has, and a failed command of the kae variant.
func speedRun() *Run {
	r := compareRun()
	r.Name = "nginx-kae-speed"
	bssl := "bssl speed -filter RSA -timeout 6"
	gm := "gmssl speed -elapsed -evp sms4-cbc"
	r.Variants[0].Speed = []SpeedRun{
		{Command: bssl, Results: []SpeedResult{
			{Algorithm: "RSA 2048", Operation: "signing", Value: 801.2, Unit: "ops/s"},
			{Algorithm: "RSA 2048", Operation: "verify (fresh key)", Value: 28806.3, Unit: "ops/s"},
		}},
		{Command: gm, Results: []SpeedResult{
			{Algorithm: "sms4-cbc", Block: 16, Value: 26448180, Unit: "bytes/s"},
			{Algorithm: "sms4-cbc", Block: 16384, Value: 35662510, Unit: "bytes/s"},
		}},
	}
	r.Variants[1].Speed = []SpeedRun{
		{Command: bssl, Results: []SpeedResult{
			{Algorithm: "RSA 2048", Operation: "signing", Value: 1602.4, Unit: "ops/s"},
		}},
		{Command: gm, Error: `server speed command "gmssl speed -elapsed -evp sms4-cbc" failed: exit status 1`},
	}
	return r
}

// TestWriteTextSpeed checks the crypto speed section's figures and
// deltas directly, so that a careless -update cannot bless a wrong one.
func TestWriteTextSpeed(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, speedRun()); err != nil {
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
	if err := WriteText(&b, compareRun()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "crypto speed") {
		t.Errorf("a run without speed runs has a crypto speed section:\n%s", b.String())
	}
}
