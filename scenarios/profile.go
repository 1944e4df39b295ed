package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/serverprof"
)

// MaxProfileCrypto bounds server.profile_crypto.
const MaxProfileCrypto = 100

// profile resolves server.profile and profile_crypto (nil: not profiled). A
// server section of nothing else profiles a server kaeload does not start.
func (c *compiler) profile() *results.ProfileSpec {
	ss := c.s.Server
	if ss == nil {
		return nil
	}
	on := or(ss.Profile, false)
	if ss.ProfileCrypto != nil && !on {
		c.errorf("server.profile_crypto", "set without server.profile: true (it only says what counts as crypto in a profile)")
	}
	var spec *results.ProfileSpec
	if on {
		spec = &results.ProfileSpec{Rate: serverprof.Rate, Crypto: slices.Clone(results.DefaultCryptoLibraries)}
		switch list := ss.ProfileCrypto; {
		case list == nil:
		case len(list) == 0:
			c.errorf("server.profile_crypto", "empty list (leave it out for the defaults: %s)", strings.Join(results.DefaultCryptoLibraries, ", "))
		case len(list) > MaxProfileCrypto:
			c.errorf("server.profile_crypto", "%d entries, more than the %d allowed", len(list), MaxProfileCrypto)
		default:
			spec.Crypto = slices.Clone(list)
			for i, l := range list {
				if strings.TrimSpace(l) == "" || plans.HasControl(l) {
					c.errorf(fmt.Sprintf("server.profile_crypto[%d]", i), "%q is not a library name prefix (want e.g. libcrypto, kae, qat)", l)
				}
			}
		}
	}
	controls := ss.Start != nil || ss.Stop != nil || ss.Reload != nil || len(ss.Env) > 0 || ss.Ready != nil ||
		ss.CommandTimeout != nil || len(ss.Probes) > 0 ||
		slices.ContainsFunc(c.s.Variants, func(v VariantSpec) bool { return v.Start != nil })
	if ss.Profile != nil && !controls { // kaeload only profiles the server
		if ss.Host != nil && *ss.Host != "local" {
			c.errorf("server.host", "a server that kaeload does not start is profiled on this machine only: give server.start and server.stop to profile it on %s", *ss.Host)
		}
		cp := *c.s
		cp.Server = nil
		c.s = &cp
	}
	return spec
}
