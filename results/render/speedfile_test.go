package render

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"strings"
	"testing"
)

func TestSpeedPairLine(t *testing.T) {
	for _, tc := range []struct {
		p    analysis.SpeedPair
		want string
	}{
		{analysis.SpeedPair{Label: "RSA 2048 signing", Unit: "ops/s", A: 801.2, B: 3245.2, HasA: true, HasB: true},
			"801.2 → 3245.2 ops/s, 4.05× (+305.04 %)"},
		{analysis.SpeedPair{Unit: "ops/s", A: 100, B: 50, HasA: true, HasB: true}, "100.0 → 50.0 ops/s, 0.50× (-50.00 %)"},
		{analysis.SpeedPair{Unit: "ops/s", B: 50, HasB: true}, "- → 50.0 ops/s"},
		{analysis.SpeedPair{Unit: "ops/s", A: 0, B: 50, HasA: true, HasB: true}, "0.0 → 50.0 ops/s"},
	} {
		if got := speedPairLine(tc.p); got != tc.want {
			t.Errorf("speedPairLine = %q, want %q", got, tc.want)
		}
	}
}

func TestPairSpeed(t *testing.T) {
	a := []results.SpeedResult{
		{Algorithm: "RSA 2048", Operation: "signing", Value: 801.2, Unit: "ops/s"},
		{Algorithm: "only a", Value: 1, Unit: "ops/s"},
		{Algorithm: "RSA 2048", Operation: "signing", Value: 9, Unit: "ops/s"}, // printed twice: the first counts
	}
	b := []results.SpeedResult{
		{Algorithm: "only b", Block: 16, Value: 2, Unit: "bytes/s"},
		{Algorithm: "RSA 2048", Operation: "signing", Value: 3245.2, Unit: "ops/s"},
	}
	ps := analysis.PairSpeed(a, b)
	if len(ps) != 3 || ps[0].Label != "RSA 2048 signing" || ps[0].A != 801.2 || ps[0].B != 3245.2 ||
		ps[1].Label != "only a" || ps[1].HasB || ps[2].Label != "only b 16 bytes" || ps[2].HasA {
		t.Fatalf("PairSpeed = %+v", ps)
	}
	var text, js, csv bytes.Buffer
	for _, f := range []struct {
		name string
		w    *bytes.Buffer
	}{{"text", &text}, {"json", &js}, {"csv", &csv}} {
		if err := WriteSpeedPairs(f.w, f.name, "a.txt", "b.txt", ps); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text.String(), "RSA 2048 signing  801.2 → 3245.2 ops/s, 4.05× (+305.04 %)") {
		t.Errorf("text lacks the pasted line:\n%s", text.String())
	}
	var got struct {
		Figures []struct {
			Figure string   `json:"figure"`
			Ratio  *float64 `json:"ratio"`
		} `json:"figures"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || len(got.Figures) != 3 || got.Figures[0].Ratio == nil || got.Figures[1].Ratio != nil {
		t.Errorf("json %v:\n%s", err, js.String())
	}
	if want := "RSA 2048 signing,ops/s,801.2,3245.2,4.050424363454817,305.0424363454817\n"; !strings.Contains(csv.String(), want) {
		t.Errorf("csv lacks %q:\n%s", want, csv.String())
	}
	if err := WriteSpeedPairs(&text, "pdf", "a", "b", ps); err == nil {
		t.Error("format pdf: no error")
	}
}
