package scenarios

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestMarshalRoundTrip: every example, written by Marshal and parsed
// again, compiles to the same plan, and writes the same text again.
func TestMarshalRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) < 2 {
		t.Fatalf("examples: %v %v", files, err)
	}
	extra := `
name: all
repeat: {effect: 3%, max: 5}
equivalence: 1.5%
server:
  start: "true"
  env: {TOKEN: {value: x, secret: true}, PLAIN: "33"}
variants:
  - name: a
  - name: s-{r}
    search: {r: {from: 0, to: 100, step: 5}, maximize: -p99 handshake, budget: 20m}
  - name: w-{x}-{y}
    sweep: {x: [1, two, "3"], y: {from: 1, to: 2, step: 1}}
target: {url: "https://127.0.0.1:1/", headers: {B: "1", A: "yes"}}
accelerator: {capacity: 120340.5}
`
	for _, f := range files {
		s, err := LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, f, s)
	}
	s, err := Parse("extra.yaml", []byte(extra))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "extra.yaml", s)
}

func roundTrip(t *testing.T, name string, s *Scenario) {
	t.Helper()
	text, err := s.Marshal()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	back, err := Parse(name, text)
	if err != nil {
		t.Fatalf("%s: the written scenario does not parse: %v\n%s", name, err, text)
	}
	again, _ := back.Marshal()
	if string(again) != string(text) {
		t.Errorf("%s: written twice, differs:\n%s\n---\n%s", name, text, again)
	}
	want, err1 := s.Compile(bigHost)
	got, err2 := back.Compile(bigHost)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: compile: %v / %v\n%s", name, err1, err2, text)
	}
	want.Warnings, got.Warnings = nil, nil // they name the lines
	w, _ := json.MarshalIndent(want, "", " ")
	g, _ := json.MarshalIndent(got, "", " ")
	if string(w) != string(g) {
		t.Errorf("%s: the plan differs after Marshal:\n%s", name, text)
	}
}
