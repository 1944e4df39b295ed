package results

import (
	"encoding/json"
	"testing"
)

// TestWarningJSON: a warning is written as a note, {code, message,
// params}, and read back; an older run's plain string reads as its words.
func TestWarningJSON(t *testing.T) {
	in := Warnings{{Code: WarnInterrupted, Args: map[string]any{"variant": "kae", "index": 1}, Message: "variant kae rep 2/3 was interrupted and is not included"}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `[{"code":"interrupted","index":1,"message":"variant kae rep 2/3 was interrupted and is not included","variant":"kae"}]`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var out Warnings
	if err := json.Unmarshal([]byte(`["server restarted", `+string(b[1:])), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Code != "" || out[0].Message != "server restarted" || out[1].Code != WarnInterrupted || out[1].Args["variant"] != "kae" {
		t.Fatalf("read back %+v", out)
	}
	r := &Run{Variants: []Variant{{Name: "kae"}}, Warnings: out}
	if err := r.Apply(Change{Type: ChangeRep, Rep: &Rep{Index: 1}}); err != nil {
		t.Fatal(err)
	}
	if got := r.Warnings.Strings(); len(got) != 1 || got[0] != "server restarted" {
		t.Errorf("after the window was measured: %q", got)
	}
}
