package scenarios

import (
	"slices"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/serverprof"
)

// TestCompileProfile: server.profile compiles into Plan.Profile with
// perf's rate and the default crypto libraries, or the scenario's; a
// section of nothing but profile leaves the server uncontrolled; no
// profile key, no Profile.
func TestCompileProfile(t *testing.T) {
	const head = "target: {url: \"https://127.0.0.1:8443/\"}\nload: {duration: 1s, groups: [{cpus: \"0\", connections: 1}]}\n"
	for _, c := range []struct {
		name, yaml string
		crypto     []string // nil: no Profile
		server     bool
	}{
		{"controlled", head + "server: {start: nginx, profile: true}\n", results.DefaultCryptoLibraries, true},
		{"own list", head + "server: {start: nginx, profile: true, profile_crypto: [libcrypto, kae]}\n", []string{"libcrypto", "kae"}, true},
		{"profile only", head + "server: {profile: true}\n", results.DefaultCryptoLibraries, false},
		{"off", head + "server: {start: nginx, profile: false}\n", nil, true},
		{"none", head, nil, false},
	} {
		p := mustCompile(t, c.yaml, smallHost)
		if got := p.Server != nil; got != c.server {
			t.Errorf("%s: server controlled %v, want %v", c.name, got, c.server)
		}
		switch {
		case c.crypto == nil && p.Profile != nil:
			t.Errorf("%s: Profile %+v, want none", c.name, p.Profile)
		case c.crypto != nil && p.Profile == nil:
			t.Errorf("%s: no Profile", c.name)
		case c.crypto != nil && (p.Profile.Rate != serverprof.Rate || !slices.Equal(p.Profile.Crypto, c.crypto)):
			t.Errorf("%s: Profile %+v, want rate %d, crypto %v", c.name, p.Profile, serverprof.Rate, c.crypto)
		}
	}
}
