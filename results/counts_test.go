package results_test

import (
	"reflect"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestCountsAddEveryField: Add sums every counter of Counts, nested ones
// included, so a counter added later cannot be left out of a merge; an
// error class keeps the first message of the first that counted.
func TestCountsAddEveryField(t *testing.T) {
	var c results.Counts
	next := uint64(0)
	counters(reflect.ValueOf(&c).Elem(), func(v reflect.Value) { next++; v.SetUint(next) })
	c.Negotiated = map[string]uint64{"TLS1.3 A B": 7}
	c.Errors[results.ErrTLS].First = "first"
	other := c
	other.Errors[results.ErrTLS].First = "second"

	var sum results.Counts
	sum.Add(&c)
	sum.Add(&other)
	var got, want []uint64
	counters(reflect.ValueOf(&sum).Elem(), func(v reflect.Value) { got = append(got, v.Uint()) })
	counters(reflect.ValueOf(&c).Elem(), func(v reflect.Value) { want = append(want, 2*v.Uint()) })
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counters after adding c twice:\n got %v\nwant %v", got, want)
	}
	if n := sum.Negotiated["TLS1.3 A B"]; n != 14 {
		t.Errorf("Negotiated = %d, want 14", n)
	}
	if f := sum.Errors[results.ErrTLS].First; f != "first" {
		t.Errorf("First = %q, want the first message", f)
	}
}

// counters calls f on every uint64 of v, in field order.
func counters(v reflect.Value, f func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Uint64:
		f(v)
	case reflect.Array:
		for i := range v.Len() {
			counters(v.Index(i), f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			counters(v.Field(i), f)
		}
	}
}
