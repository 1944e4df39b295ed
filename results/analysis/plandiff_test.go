package analysis

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestPlanLineDiff: compare says what differs between the plans and the
// host facts, field by field, not only that the plans differ (the case of
// issue 30: 200 against 50 connections); the seed, drawn per run, is no
// difference.
func TestPlanLineDiff(t *testing.T) {
	plan := func(conns int, duration string, seed int) json.RawMessage {
		return json.RawMessage(`{"seed":` + itoa(seed) + `,"load":{"duration":` + duration + `,"groups":[{"cpus":[0,1],"connections":` + itoa(conns) + `}]},"variants":[{"name":"a"}]}`)
	}
	a := &results.Run{Plan: plan(200, "60000000000", 1), Host: json.RawMessage(`{"kernel":"6.1","cpus":2}`)}
	b := &results.Run{Plan: plan(50, "30000000000", 2), Host: json.RawMessage(`{"kernel":"6.8","cpus":2}`)}
	got := planLine([]*results.Run{a, b}, []string{"old", "new"})
	want := strings.Join([]string{
		"plans: new ran a different plan than old; what differs, field by field:",
		"  new: load.duration: 1m0s → 30s",
		"  new: load.groups[0].connections: 200 → 50",
		`  new: host.kernel: "6.1" → "6.8"`,
	}, "\n")
	if got != want {
		t.Errorf("planLine\n got %s\nwant %s", got, want)
	}
	c := &results.Run{Plan: plan(200, "60000000000", 7), Host: a.Host}
	if got, want := planLine([]*results.Run{a, c}, nil), "plans: identical"; got != want {
		t.Errorf("same plans, another seed: %q, want %q", got, want)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
