package scenarios

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestBlockOrderPinned pins the randomized order of one seed: a user
// replays a run's order with --seed months later, on another machine and
// another Go release, so any change to BlockOrder's output is a break.
func TestBlockOrderPinned(t *testing.T) {
	got := [][]int{BlockOrder(42, 5, 0), BlockOrder(42, 5, 1), BlockOrder(42, 5, 2), BlockOrder(7, 3, 0)}
	want := [][]int{{3, 0, 4, 1, 2}, {1, 2, 0, 4, 3}, {2, 3, 1, 4, 0}, {0, 1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BlockOrder orders = %v, want %v: replaying a stored seed would run another order", got, want)
	}
	// Every round is a permutation, and rounds differ.
	counts := map[string]int{}
	for r := range 200 {
		o := BlockOrder(1, 4, r)
		s := slices.Clone(o)
		slices.Sort(s)
		if !slices.Equal(s, []int{0, 1, 2, 3}) {
			t.Fatalf("round %d: %v is not a permutation of 0..3", r, o)
		}
		counts[stringOf(o)]++
	}
	// 200 rounds over 24 permutations: each expected 8.3 times; a fixed
	// or badly skewed order would leave most unseen.
	seen := 0
	for k, n := range counts {
		if strings.HasPrefix(k, "p:") && n > 0 {
			seen++
		}
	}
	if seen < 20 {
		t.Errorf("200 rounds used only %d of the 24 orders of 4 variants", seen)
	}
}

func stringOf(o []int) string {
	var b strings.Builder
	b.WriteString("p:")
	for _, v := range o {
		b.WriteByte(byte('0' + v))
	}
	return b.String()
}

// TestRandomizedSteps: the default order runs every variant once per
// round, restarting the server before each window, in BlockOrder's order.
func TestRandomizedSteps(t *testing.T) {
	p := &Plan{Order: Randomized, Seed: 42, SeedSet: true, Repeat: 3, Server: &Server{},
		Variants: []Variant{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}}
	steps := p.Steps()
	if len(steps) != 15 {
		t.Fatalf("%d steps, want 15", len(steps))
	}
	for r := range 3 {
		order := BlockOrder(42, 5, r)
		for i, v := range order {
			st := steps[r*5+i]
			if st.Variant != v || st.Rep != r || !st.Restart {
				t.Errorf("round %d step %d = %+v, want variant %d rep %d with a restart", r, i, st, v, r)
			}
		}
	}
	if q := p.WithSeed(43); reflect.DeepEqual(q.Steps(), steps) || p.Seed != 42 || !q.SeedSet {
		t.Errorf("WithSeed(43) kept the order of seed 42 or changed the original plan")
	}
}

// TestStatisticsFields: seed, equivalence and every form of repeat
// compile to the plan's fields, and bad values say what is expected.
func TestStatisticsFields(t *testing.T) {
	base := "name: t\ntarget: {url: \"https://127.0.0.1:8443/\"}\nload: {duration: 1s}\n"
	good := []struct {
		yaml string
		want func(*Plan) bool
	}{
		{"", func(p *Plan) bool {
			return p.Order == Randomized && !p.SeedSet && p.Equivalence == DefaultEquivalence && p.Repeat == 1 && p.Auto == nil
		}},
		{"seed: 18446744073709551615\n", func(p *Plan) bool { return p.SeedSet && p.Seed == 18446744073709551615 }},
		{"equivalence: 5%\n", func(p *Plan) bool { return p.Equivalence == 0.05 }},
		{"repeat: 4\n", func(p *Plan) bool { return p.Repeat == 4 && p.Auto == nil }},
		{"repeat: auto\nequivalence: 3%\n", func(p *Plan) bool {
			return p.Auto != nil && *p.Auto == AutoRepeat{Effect: 0.03, Max: DefaultAutoMax, Calibrate: DefaultAutoCalibrate} && p.Repeat == DefaultAutoMax
		}},
		{"repeat: {effect: 1.5%, max: 20, calibrate: 8}\n", func(p *Plan) bool {
			return *p.Auto == AutoRepeat{Effect: 0.015, Max: 20, Calibrate: 8} && p.Repeat == 20
		}},
		{"order: sequential\n", func(p *Plan) bool { return p.Order == Sequential }},
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
