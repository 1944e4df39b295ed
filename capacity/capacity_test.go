package capacity

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// run searches a server whose true knee is knee: a step passes when its
// rate is at most knee.
func run(t *testing.T, c Config, knee float64) Result {
	t.Helper()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	up, bisect := c.Bound()
	for i := 0; ; i++ {
		rate, _, ok := s.Next()
		if !ok {
			break
		}
		if i >= up+bisect {
			t.Fatalf("knee %g: step %d at %g beyond the bound %d + %d", knee, i+1, rate, up, bisect)
		}
		s.Record(rate <= knee, "")
	}
	return s.Result()
}

// TestSearch: for knees anywhere, the search brackets the true knee to the
// resolution, its up steps grow by Factor (capped at Max), its bisect
// steps lie strictly inside the bracket so far, and it never takes more
// steps than Bound.
func TestSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	configs := []Config{
		{From: 1000, Factor: 2, Resolution: 0.05, Max: 1e6},
		{From: 100, Factor: 10, Resolution: 0.01, Max: 1e5},
		{From: 500, Factor: 1.5, Resolution: 0.2, Max: 600},
		{From: 1, Factor: 3, Resolution: 0.5, Max: 1},
	}
	for _, c := range configs {
		for range 2000 {
			knee := math.Exp(rng.Float64()*math.Log(c.Max*4/(c.From/4))) * c.From / 4
			res := run(t, c, knee)
			if !res.Done {
				t.Fatalf("%+v knee %g: not done", c, knee)
			}
			switch {
			case knee < c.From:
				if res.Limit != BelowFrom || res.Knee != 0 || len(res.Steps) != 1 {
					t.Errorf("%+v knee %g below from: %+v", c, knee, res)
				}
			case knee >= c.Max:
				if res.Limit != AtMax || res.Knee != c.Max {
					t.Errorf("%+v knee %g above max: limit %q knee %g", c, knee, res.Limit, res.Knee)
				}
			default:
				if res.Limit != Bracketed || res.Knee > knee || res.Fail <= knee {
					t.Errorf("%+v knee %g: bracket [%g, %g) limit %q", c, knee, res.Knee, res.Fail, res.Limit)
				}
				if w := res.Fail - res.Knee; w > c.Resolution*res.Knee && w > 1 {
					t.Errorf("%+v knee %g: bracket [%g, %g) wider than %g %%", c, knee, res.Knee, res.Fail, 100*c.Resolution)
				}
			}
			lo, hi := 0.0, math.Inf(1)
			for i, st := range res.Steps {
				switch st.Phase {
				case Up:
					if i > 0 && (res.Steps[i-1].Phase != Up || st.Rate != min(res.Steps[i-1].Rate*c.Factor, c.Max)) {
						t.Fatalf("%+v knee %g: up step %d at %g after %+v", c, knee, i, st.Rate, res.Steps[i-1])
					}
				case Bisect:
					if st.Rate <= lo || st.Rate >= hi {
						t.Fatalf("%+v knee %g: bisect step %g outside (%g, %g)", c, knee, st.Rate, lo, hi)
					}
				}
				if st.Pass {
					lo = st.Rate
				} else {
					hi = st.Rate
				}
			}
		}
	}
}

// TestSearchSteps: the steps of one search, spelled out.
func TestSearchSteps(t *testing.T) {
	res := run(t, Config{From: 1000, Factor: 2, Resolution: 0.05, Max: 1e6}, 41000)
	var got []string
	for _, st := range res.Steps {
		got = append(got, strings.TrimSpace(strings.Join([]string{string(st.Phase), ftoa(st.Rate), map[bool]string{true: "pass", false: "fail"}[st.Pass]}, " ")))
	}
	want := "up 1000 pass, up 2000 pass, up 4000 pass, up 8000 pass, up 16000 pass, up 32000 pass, up 64000 fail, bisect 48000 fail, bisect 40000 pass, bisect 44000 fail, bisect 42000 fail"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("steps:\n%s\nwant\n%s", g, want)
	}
	if res.Knee != 40000 || res.Fail != 42000 { // 2000 wide: 5 % of 40000
		t.Errorf("knee %g, fail %g; want 40000, 42000", res.Knee, res.Fail)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func TestNewErrors(t *testing.T) {
	for _, c := range []Config{{}, {From: 1, Factor: 1, Resolution: 0.1, Max: 2}, {From: 10, Factor: 2, Resolution: 0.1, Max: 5}, {From: 1, Factor: 2, Resolution: 0, Max: 5}} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v): no error", c)
		}
	}
}

func TestJudge(t *testing.T) {
	tg := Targets{P99Handshake: 20 * time.Millisecond, MaxErrors: 0.001, MaxMissed: 0.01}
	for _, tc := range []struct {
		m    Measure
		pass bool
		why  string
	}{
		{Measure{Succeeded: 10, P99Handshake: 20 * time.Millisecond}, true, ""},
		{Measure{Succeeded: 10, P99Handshake: 31200 * time.Microsecond, MissedShare: 0.041}, false, "p99 handshake 31.2 ms > 20 ms; missed 4.1 % > 1 %"},
		{Measure{Succeeded: 10, ErrorShare: 0.002}, false, "errors 0.2 % > 0.1 %"},
		{Measure{}, false, "no request succeeded"},
	} {
		pass, why := tg.Judge(tc.m)
		if pass != tc.pass || why != tc.why {
			t.Errorf("Judge(%+v) = %v, %q; want %v, %q", tc.m, pass, why, tc.pass, tc.why)
		}
	}
}

// TestBoundMatchesPlan: the bound --dry-run shows (plans.Capacity's
// StepBound) is the driver's own.
func TestBoundMatchesPlan(t *testing.T) {
	for _, c := range []Config{
		{From: 1000, Factor: 2, Resolution: 0.05, Max: 1e6},
		{From: 10, Factor: 2, Resolution: 0.1, Max: 1e5},
		{From: 100, Factor: 10, Resolution: 0.01, Max: 1e5},
		{From: 5, Factor: 1.1, Resolution: 0.5, Max: 5},
	} {
		up, bisect := c.Bound()
		pu, pb := plans.Capacity{CapacitySpec: results.CapacitySpec{From: c.From, Factor: c.Factor, Resolution: c.Resolution, Max: c.Max}}.StepBound()
		if up != pu || bisect != pb {
			t.Errorf("%+v: Bound %d + %d, plan's StepBound %d + %d", c, up, bisect, pu, pb)
		}
	}
}
