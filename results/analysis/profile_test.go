package analysis

import (
	"math"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
)

// TestSummarizeProfile: issue 31's RSA-2048 profile (66.7 % libcrypto,
// 4.6 % libssl) bounds offload at 1 / (1 − 0.713) = 3.48×; kae's
// measured Δ is against the baseline's bound (its words: tables); the shares sum to
// 1; the self-check ties the samples to the server's CPU seconds × 499;
// a variant whose repetitions had no perf says why.
func TestSummarizeProfile(t *testing.T) {
	r := fixture.ProfileRun()
	s := Analyze(r).Summary
	pt := SummarizeProfile(r, s)
	if pt == nil || len(pt.Variants) != 3 {
		t.Fatalf("profile table %+v, want 3 variants", pt)
	}
	for _, v := range pt.Variants[:2] {
		var sum float64
		for _, l := range v.Libraries {
			sum += l.Share
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: shares sum to %v, want 1", v.Name, sum)
		}
	}
	base, kae, qat := &pt.Variants[0], &pt.Variants[1], &pt.Variants[2]
	if got, want := base.CryptoShare, 0.713; math.Abs(got-want) > 1e-9 {
		t.Errorf("baseline crypto share %v, want %v", got, want)
	}
	if got, want := base.Bound, 1/(1-0.713); math.Abs(got-want) > 1e-9 {
		t.Errorf("baseline bound %v, want %v", got, want)
	}
	if got, want := kae.CryptoShare, 0.48; math.Abs(got-want) > 1e-9 {
		t.Errorf("kae crypto share %v (libcrypto, kae.so and libwd), want %v", got, want)
	}
	if !kae.HasDelta || base.HasDelta || kae.BaselineBound != base.Bound {
		t.Errorf("Δ: kae has %v (of %v), baseline has %v; want kae only, of the baseline's bound", kae.HasDelta, kae.BaselineBound, base.HasDelta)
	}
	if c := base.Check; !c.Checked || !c.Agrees || c.Samples != 15000 || math.Abs(c.Expected-30.3*499) > 1e-6 {
		t.Errorf("baseline self-check %+v, want 15,000 samples vs 30.3 CPU-s × 499, agreeing", c)
	}
	if qat.Available() || qat.Missing.Code != notes.ProfileNotAvailable || qat.Missing.String() != "profile not available: perf not found" || qat.Pprof != "" {
		t.Errorf("qat: %+v, want no profile because perf was not found", qat)
	}
	if got, want := pt.Libraries[0], "libcrypto.so.3"; got != want {
		t.Errorf("first library row %q, want %q (%v)", got, want, pt.Libraries)
	}
	if SummarizeProfile(fixture.CompareRun(), s) != nil {
		t.Errorf("a run that did not profile has a profile table")
	}
}

// TestProfileCheckDisagrees: samples 20 % short of the server's CPU
// seconds × rate fail the self-check (its words: tables).
func TestProfileCheckDisagrees(t *testing.T) {
	r := &results.Run{Profile: &results.ProfileSpec{Rate: 499, Crypto: []string{"libcrypto"}}, Variants: []results.Variant{{Name: "v", Reps: []results.Rep{{
		ServerCPU:     &results.CPUUsage{Seconds: 1},
		ServerProfile: &results.ServerProfile{Rate: 499, Samples: 399, Libraries: []results.ProfileCount{{Name: "libcrypto.so.3", Samples: 399}}},
	}}}}}
	v := SummarizeProfile(r, nil).Variants[0]
	if !v.Check.Checked || v.Check.Agrees {
		t.Errorf("check %+v, want a disagreement", v.Check)
	}
	if !math.IsInf(v.Bound, 1) {
		t.Errorf("all crypto: bound %v, want +Inf", v.Bound)
	}
}

// TestProfileCheckSteal: CI's failure of stop 48, 340 samples against 0.55 server CPU-s × 499 Hz
// (ratio 1.24), disagrees on a host that reports no steal and agrees, saying why, when the
// hypervisor stole 0.15 CPU-s while perf sampled; steal excuses samples only up to itself, and
// never a shortfall.
func TestProfileCheckSteal(t *testing.T) {
	check := func(samples uint64, cpu, steal float64) ProfileCheck {
		p := &results.ServerProfile{Rate: 499, Samples: samples, CPUSeconds: cpu, Steal: steal,
			Libraries: []results.ProfileCount{{Name: "libcrypto.so.3", Samples: samples}}}
		r := &results.Run{Profile: &results.ProfileSpec{Rate: 499}, Variants: []results.Variant{{Name: "v",
			Reps: []results.Rep{{ServerProfile: p}}}}}
		return SummarizeProfile(r, nil).Variants[0].Check
	}
	for _, tt := range []struct {
		name           string
		samples        uint64
		cpu, steal     float64
		agrees, stolen bool
	}{
		{"no steal", 340, 0.55, 0, false, false},
		{"steal covers it", 340, 0.55, 0.15, true, true},
		{"steal too small", 340, 0.55, 0.02, false, false},
		{"within 10 % anyway", 290, 0.55, 0.15, true, false},
		{"short, whatever the steal", 230, 0.55, 0.15, false, false},
	} {
		c := check(tt.samples, tt.cpu, tt.steal)
		if !c.Checked || c.Agrees != tt.agrees || c.Stolen != tt.stolen || c.Steal != tt.steal {
			t.Errorf("%s: %d samples, %.2f CPU-s, %.2f stolen: check %+v; want agrees %v, stolen %v",
				tt.name, tt.samples, tt.cpu, tt.steal, c, tt.agrees, tt.stolen)
		}
	}
}
