package scenarios

import "testing"

// TestPairsTextQuotesControl: an env value with a newline prints as one
// quoted variable in --dry-run, not as a second variable.
func TestPairsTextQuotesControl(t *testing.T) {
	for _, tc := range []struct{ v, want string }{
		{"a\nB=evil", `FOO="a\nB=evil"`},
		{"plain value", "FOO=plain value"},
		{"\xff", `FOO="\xff"`},
	} {
		if got := pairsText(map[string]string{"FOO": tc.v}); got != tc.want {
			t.Errorf("pairsText(%q) = %s, want %s", tc.v, got, tc.want)
		}
	}
}
