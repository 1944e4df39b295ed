package pinning

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Set
		err  string
	}{
		{in: "0", want: Set{0}},
		{in: "0-3", want: Set{0, 1, 2, 3}},
		{in: "0-1,4,6-7", want: Set{0, 1, 4, 6, 7}},
		{in: " 8 , 2-3 ", want: Set{2, 3, 8}},
		{in: "3-1", err: `CPU list "3-1": range "3-1" descends (write 1-3)`},
		{in: "1,1", err: `CPU list "1,1": CPU 1 appears twice`},
		{in: "0-2,2", err: `CPU list "0-2,2": CPU 2 appears twice`},
		{in: "a", err: `CPU list "a": "a" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{in: "1-", err: `CPU list "1-": "" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{in: "-1", err: `CPU list "-1": "" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{in: "+1", err: `CPU list "+1": "+1" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{in: "1,,2", err: `CPU list "1,,2": "" is not a CPU number (want e.g. 0-9,20-29,40)`},
		{in: "", err: "empty CPU list"},
		{in: "99999", err: `CPU list "99999": CPU 99999 is out of range (max 65535)`},
	} {
		got, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		in   Set
		want string
	}{
		{Set{}, ""},
		{Set{0}, "0"},
		{Set{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "0-9"},
		{Set{0, 1, 4, 6, 7}, "0-1,4,6-7"},
	} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("%v.String() = %q, want %q", []int(tc.in), got, tc.want)
		}
	}
}

func TestLayout(t *testing.T) {
	groups := Layout(11, 10, 0)
	var got []string
	for _, g := range groups {
		got = append(got, g.String())
	}
	want := "0-9 10-19 20-29 30-39 40-49 50-59 60-69 70-79 80-89 90-99 100-109"
	if strings.Join(got, " ") != want {
		t.Errorf("Layout(11,10,0) = %v, want %s", got, want)
	}
	if got := Layout(2, 4, 8); got[0].String() != "8-11" || got[1].String() != "12-15" {
		t.Errorf("Layout(2,4,8) = %v", got)
	}
}

func TestMissing(t *testing.T) {
	if got := (Set{0, 1, 12, 13}).Missing(Set{0, 1}).String(); got != "12-13" {
		t.Errorf("Missing = %q, want 12-13", got)
	}
}

// FuzzParseCPUList checks that Parse never panics and that whatever it
// accepts survives a String/Parse round trip unchanged.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0", "0-9,20-29,40", "3-1", "1,1", "", "a-b", "0-65535", "1-2-3", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(set.String())
		if err != nil || !reflect.DeepEqual(again, set) {
			t.Fatalf("round trip of %q: %v -> %q -> %v, %v", s, set, set.String(), again, err)
		}
		for i := 1; i < len(set); i++ {
			if set[i] <= set[i-1] {
				t.Fatalf("Parse(%q) = %v is not strictly ascending", s, set)
			}
		}
	})
}
