package numfmt

import (
	"math"
	"testing"
)

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Num(Round(3*0.1, 9), -1), "0.3"},
		{Num(2, -1), "2"},
		{Num(math.Copysign(0, -1), 1), "0.0"},
		{Num(-0.0001, 0), "0"},
		{Num(1234.5678, 1), "1234.6"},
		{Percent(0.005), "0.5%"},
		{Percent(0.07), "7%"},
		{Percent(1), "100%"},
		{Num(Round(math.MaxFloat64, 3), -1), Num(math.MaxFloat64, -1)},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
