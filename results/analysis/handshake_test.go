package analysis

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results/internal/fixture"
)

// TestHandshakeCaveat: a variant whose handshakes negotiated another
// cipher than the baseline's says so in its verdict; one that negotiated
// the same says nothing of it.
func TestHandshakeCaveat(t *testing.T) {
	r := fixture.CompareRun()
	keys := []string{
		"TLS1.3 TLS_AES_128_GCM_SHA256 X25519, RSA 2048, rsa_pss_rsae_sha256",
		"TLS1.3 TLS_AES_256_GCM_SHA384 X25519, RSA 2048, rsa_pss_rsae_sha256",
	}
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			tot := &r.Variants[i].Reps[j].Total
			tot.Negotiated = map[string]uint64{keys[min(i, 1)]: tot.Handshakes + 1}
		}
	}
	s := Analyze(r).Summary
	for i, v := range s.Variants {
		got := v.VerdictCaveat.String()
		differs := strings.Contains(got, "negotiated another cipher than the baseline: "+keys[1]+" against "+keys[0])
		if want := i > 0 && !v.IsBaseline; differs != want {
			t.Errorf("variant %s (baseline %v): verdict caveat %q", v.Name, v.IsBaseline, got)
		}
	}
}

// TestOtherLoadApart: a variant whose windows had other processes on the
// server's CPUs (a busy loop: 43 %) far beyond the baseline's (0 %) is
// cautioned whatever its own flags; variants within the MDE of the
// baseline's share (0 %, 1 % against MDEs of 3-6 %) are not.
func TestOtherLoadApart(t *testing.T) {
	s := Analyze(fixture.ServerCPUsRun()).Summary
	for _, v := range s.Variants {
		got := v.VerdictCaveat.String()
		apart := strings.Contains(got, "% in the baseline's windows, further apart than the")
		if want := v.Name == "busy-loop"; apart != want {
			t.Errorf("variant %s: verdict caveat %q", v.Name, got)
		}
	}
}
