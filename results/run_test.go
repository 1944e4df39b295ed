package results_test

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
)

func TestJSONRoundTrip(t *testing.T) {
	fixture.SingleGoroutine(t)
	for name, r := range map[string]*results.Run{"compare": fixture.CompareRun(), "interrupted": fixture.InterruptedRun(), "single": fixture.SingleRun()} {
		var first bytes.Buffer
		if err := results.WriteJSON(&first, r); err != nil {
			t.Fatalf("%s: WriteJSON: %v", name, err)
		}
		got, err := results.ReadRun(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("%s: ReadRun: %v", name, err)
		}
		var second bytes.Buffer
		if err := results.WriteJSON(&second, got); err != nil {
			t.Fatalf("%s: WriteJSON again: %v", name, err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Errorf("%s: re-encoded run differs\nfirst:\n%s\nsecond:\n%s", name, first.Bytes(), second.Bytes())
		}
		// Spot checks on the decoded value, beyond byte equality.
		for vi := range r.Variants {
			for ri := range r.Variants[vi].Reps {
				want, have := &r.Variants[vi].Reps[ri], &got.Variants[vi].Reps[ri]
				for gi := range want.Groups {
					w, h := &want.Groups[gi], &have.Groups[gi]
					if h.Connections != w.Connections || h.Slots != w.Slots {
						t.Errorf("%s: variant %d rep %d group %d: connections opened %d, slots %d; want %d, %d",
							name, vi, ri, gi, h.Connections, h.Slots, w.Connections, w.Slots)
					}
					if !h.Latency.Total.Equals(w.Latency.Total.Histogram) || !h.Latency.Handshake.Equals(w.Latency.Handshake.Histogram) {
						t.Errorf("%s: variant %d rep %d group %d: histograms differ after decoding", name, vi, ri, gi)
					}
					if h.Errors != w.Errors || h.Window.Start.Equal(w.Window.Start) == false || h.Rate() != w.Rate() {
						t.Errorf("%s: variant %d rep %d group %d: errors, window or rate differ after decoding", name, vi, ri, gi)
					}
				}
				if have.Total.Rate() != want.Total.Rate() || !have.Total.Latency.Total.Equals(want.Total.Latency.Total.Histogram) {
					t.Errorf("%s: variant %d rep %d: total differs after decoding", name, vi, ri)
				}
			}
		}
		if got.Interrupted != r.Interrupted || got.Baseline != r.Baseline || len(got.Warnings) != len(r.Warnings) {
			t.Errorf("%s: run fields differ after decoding: %+v", name, got)
		}
	}
}

// TestGroupJSONNames: a group's planned slots and the connections it
// opened have distinct JSON names, and both survive a round trip.
func TestGroupJSONNames(t *testing.T) {
	g := results.Group{Slots: 50, Counts: results.Counts{Connections: 1234}, Latency: results.NewLatency()}
	b, err := json.Marshal(&g)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"slots":50`, `"connections_opened":1234`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("group JSON lacks %s: %s", want, b)
		}
	}
	var got results.Group
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Slots != 50 || got.Connections != 1234 {
		t.Errorf("decoded Slots, Connections = %d, %d, want 50, 1234", got.Slots, got.Connections)
	}
}

func TestReadRunRejects(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"schema version", `{"schema_version": 2, "name": "x"}`, "schema version 2, want 1"},
		{"unknown field", `{"schema_version": 1, "name": "x", "colour": "red"}`, `unknown field "colour"`},
		{"bad histogram", `{"schema_version": 1, "variants": [{"name": "a", "reps": [{"index": 0, "groups": [{"latency": {"total": "bm90IGEgaGlzdG9ncmFt"}}]}]}]}`, "histogram"},
		{"unknown error class", `{"schema_version": 1, "variants": [{"name": "a", "reps": [{"index": 0, "groups": [{"errors": {"gremlins": {"count": 1}}}]}]}]}`, `unknown error class "gremlins"`},
		{"not json", `schema_version: 1`, "decode run"},
		{"group connections (now slots)", `{"schema_version": 1, "variants": [{"name": "a", "reps": [{"index": 0, "groups": [{"connections": 50}]}]}]}`, `unknown field "connections"`},
	}
	for _, tt := range tests {
		_, err := results.ReadRun(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ReadRun error = %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestReadRunWithoutSchemaVersion: a run.json written before the record
// was versioned still loads, as the current version.
func TestReadRunWithoutSchemaVersion(t *testing.T) {
	r, err := results.ReadRun(strings.NewReader(`{"name": "old", "variants": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.SchemaVersion, results.SchemaVersion; got != want {
		t.Errorf("SchemaVersion = %d, want %d", got, want)
	}
}

func TestBaselineVariant(t *testing.T) {
	vs := []results.Variant{{Name: "a"}, {Name: "b"}}
	tests := []struct {
		baseline string
		variants []results.Variant
		want     int
		wantName string
	}{
		{"", vs, 0, "a"},
		{"a", vs, 0, "a"},
		{"b", vs, 1, "b"},
		{"c", vs, -1, "c"},
		{"", nil, -1, ""},
	}
	for _, tt := range tests {
		r := results.Run{Name: "r", Baseline: tt.baseline, Variants: tt.variants}
		if got, name := r.BaselineVariant(); got != tt.want || name != tt.wantName {
			t.Errorf("BaselineVariant(%q) = %d, %q, want %d, %q", tt.baseline, got, name, tt.want, tt.wantName)
		}
	}
}
