package analysis

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
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
	got := planLine([]*results.Run{a, b}, []string{"old", "new"}).String()
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
	if got, want := planLine([]*results.Run{a, c}, []string{"old", "new"}).String(), "plans: identical"; got != want {
		t.Errorf("same plans, another seed: %q, want %q", got, want)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestDurationKeys: durationKeys are the JSON keys of plans.Plan's
// time.Duration fields, and none of them names another kind of field.
func TestDurationKeys(t *testing.T) {
	dur := reflect.TypeFor[time.Duration]()
	keys := map[reflect.Type]map[string]bool{}
	jsonKeys(reflect.TypeFor[plans.Plan](), keys)
	want := keys[dur]
	if !maps.Equal(durationKeys, want) {
		var lit []string
		for _, k := range slices.Sorted(maps.Keys(want)) {
			lit = append(lit, fmt.Sprintf("%q: true", k))
		}
		t.Errorf("durationKeys differ from plans.Plan's; want\nvar durationKeys = map[string]bool{%s}", strings.Join(lit, ", "))
	}
	for typ, ks := range keys {
		for k := range ks {
			if typ != dur && want[k] && typ.Kind() != reflect.Struct {
				t.Errorf("key %q names a time.Duration and a %s: its differences would show as durations", k, typ)
			}
		}
	}
}

// jsonKeys records, by field type (pointers followed), the JSON key of
// every exported field reachable from t.
func jsonKeys(t reflect.Type, keys map[reflect.Type]map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == reflect.TypeFor[time.Duration]() {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || f.Anonymous {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if keys[ft] == nil {
			keys[ft] = map[string]bool{}
		}
		keys[ft][cmp.Or(name, f.Name)] = true
		jsonKeys(ft, keys)
	}
}
