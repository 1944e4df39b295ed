package results

import (
	"slices"
	"testing"
)

// An entry swept under the searched entry's name template ("kae-{n}", sweep n: [1, 2] beside
// search n: 3..5) is not the search's: its windows are no visits.
func TestSearchMemberSweptNotSearched(t *testing.T) {
	r := &Run{
		Variants: []Variant{
			{Name: "kae-1", Series: "kae-{n}", Sweep: map[string]string{"n": "1"}}, // swept
			{Name: "kae-3", Series: "kae-{n}", Sweep: map[string]string{"n": "3"}}, // searched
		},
		Search: &Search{Series: "kae-{n}", Key: "n", Values: []string{"3", "4", "5"}},
	}
	for i := range r.Variants {
		if err := r.Apply(Change{Type: ChangeRep, Variant: i, Rep: &Rep{Index: 0}}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []Visit{{Value: "3", Variant: "kae-3"}}; !slices.Equal(r.Search.Visits, want) {
		t.Errorf("visits = %+v, want %+v (kae-1's value is not on the grid %v)", r.Search.Visits, want, r.Search.Values)
	}
}
