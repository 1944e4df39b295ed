package scenarios

import (
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestStatisticsFields: seed, equivalence and every form of repeat
// compile to the plan's fields, and bad values say what is expected.
func TestStatisticsFields(t *testing.T) {
	base := "name: t\ntarget: {url: \"https://127.0.0.1:8443/\"}\nload: {duration: 1s}\n"
	good := []struct {
		yaml string
		want func(*plans.Plan) bool
	}{
		{"", func(p *plans.Plan) bool {
			return p.Order == results.OrderRandomized && !p.SeedSet && p.Equivalence == results.DefaultEquivalence && p.Repeat == 1 && p.Auto == nil
		}},
		{"seed: 18446744073709551615\n", func(p *plans.Plan) bool { return p.SeedSet && p.Seed == 18446744073709551615 }},
		{"equivalence: 5%\n", func(p *plans.Plan) bool { return p.Equivalence == 0.05 }},
		{"repeat: 4\n", func(p *plans.Plan) bool { return p.Repeat == 4 && p.Auto == nil }},
		{"repeat: auto\nequivalence: 3%\n", func(p *plans.Plan) bool {
			return p.Auto != nil && *p.Auto == plans.AutoRepeat{Effect: 0.03, Max: DefaultAutoMax, Calibrate: DefaultAutoCalibrate} && p.Repeat == DefaultAutoMax
		}},
		{"repeat: {effect: 1.5%, max: 20, calibrate: 8}\n", func(p *plans.Plan) bool {
			return *p.Auto == plans.AutoRepeat{Effect: 0.015, Max: 20, Calibrate: 8} && p.Repeat == 20
		}},
		{"order: sequential\n", func(p *plans.Plan) bool { return p.Order == results.OrderSequential }},
	}
	for _, tt := range good {
		sc, err := Parse("t.yaml", []byte(base+tt.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		p, err := sc.Compile(eightCPUs)
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		if !tt.want(p) {
			t.Errorf("%q: plan order %q seed %d/%v equivalence %v repeat %d auto %+v", tt.yaml, p.Order, p.Seed, p.SeedSet, p.Equivalence, p.Repeat, p.Auto)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%q: Check: %v", tt.yaml, err)
		}
	}
	bad := []struct{ yaml, want string }{
		{"seed: -1\n", "t.yaml:4:7: seed: want a whole number from 0 to 18446744073709551615, got \"-1\""},
		{"seed: x\n", "t.yaml:4:7: seed: want a whole number"},
		{"equivalence: 0%\n", "t.yaml:4:14: equivalence: the equivalence margin must be more than 0%"},
		{"equivalence: 60%\n", "equivalence: the equivalence margin is a difference in percent of the baseline's req/s: more than 50% is no test"},
		{"repeat: often\n", "t.yaml:4:9: repeat: want a whole number of windows per variant, auto, or {effect: 3%, max: 10, calibrate: 5}, got \"often\""},
		{"repeat: {effect: 3%, maxx: 4}\n", `unknown key "maxx"`},
		{"repeat: {effect: 3%, max: 1}\n", "repeat.max: want 2 to 1000 (repetitions per variant; a comparison needs two on each side), got 1"},
		{"repeat: {calibrate: 1}\n", "repeat.calibrate: want 2 to 100"},
		{"repeat: {effect: 0}\n", "repeat.effect: the effect must be more than 0%"},
		{"repeat: 0\n", "repeat: must be at least 1, got 0"},
	}
	for _, tt := range bad {
		sc, err := Parse("t.yaml", []byte(base+tt.yaml))
		if err == nil {
			_, err = sc.Compile(eightCPUs)
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to contain %q", tt.yaml, err, tt.want)
		}
	}
}
