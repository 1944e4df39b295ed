package plans

import (
	"reflect"
	"testing"
)

// TestRedact checks Redact on arbitrary text: every occurrence, longest
// secret first, empty secrets ignored, other text untouched.
func TestRedact(t *testing.T) {
	p := &Plan{Secrets: []string{"abc", "", "abcdef"}, Variants: []Variant{
		{Name: "v", Env: map[string]string{"K": "xyz", "PLAIN": "abcd"}, SecretEnv: []string{"K"}},
	}}
	tests := []struct{ in, want string }{
		{"nothing here", "nothing here"},
		{"abcdef and abc and abcd", "<secret> and <secret> and <secret>d"},
		{"xyzxyz", "<secret><secret>"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := p.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got, want := (&Plan{}).Redact("abc"), "abc"; got != want {
		t.Errorf("no secrets: Redact = %q, want %q", got, want)
	}
	r := p.Redacted()
	if got, want := r.Variants[0].Env, (map[string]string{"K": SecretPlaceholder, "PLAIN": "<secret>d"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Redacted env = %v, want %v", got, want)
	}
	if got, want := p.Variants[0].Env["K"], "xyz"; got != want {
		t.Errorf("original K = %q, want %q", got, want)
	}
}
