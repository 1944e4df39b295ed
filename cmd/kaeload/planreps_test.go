package main

import (
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/scenarios/plans"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPlanReps runs "kaeload plan-reps" on the built-in target: it must
// measure the asked number of windows, print the noise it found, and a
// table whose every row is what stats.RepsFor says for that noise, with
// the asked effect marked. The test checks the arithmetic the user acts
// on, not a particular noise level, which depends on the machine.
func TestPlanReps(t *testing.T) {
	alongside(t)
	path := writeScenario(t, `name: plan
target: {builtin: {cert: ecdsa-p256}}
load:
  connection: close
  warmup: 100ms
  duration: 500ms
  groups: [{connections: 4}]
repeat: 3
variants: [{name: a}, {name: b}, {name: c}]
`)
	out, errOut, code := kaeload(t, "plan-reps", path, "--effect", "7%", "--calibrate", "3", "--max", "40", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if got := len(regexp.MustCompile(`(?m)^variant a rep \d/3 done`).FindAllString(errOut, -1)); got != 3 {
		t.Errorf("want 3 calibration windows reported on stderr, saw %d:\n%s", got, errOut)
	}
	if !strings.Contains(out, "calibration: variant a, 3 good windows") {
		t.Errorf("want the baseline (first variant) measured in 3 windows:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^noise: ([\d.]+) %`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no noise line:\n%s", out)
	}
	noise, _ := strconv.ParseFloat(m[1], 64)
	if !strings.Contains(out, "comparisons judged together: 2 (Holm") {
		t.Errorf("three variants make two comparisons judged together:\n%s", out)
	}
	rows := regexp.MustCompile(`(?m)^±([\d.]+) %\s+(more than 40|\d+)(   <- asked)?$`).FindAllStringSubmatch(out, -1)
	if len(rows) != 6 { // 1, 2, 3, 5, 10 and the asked 7
		t.Fatalf("want 6 effect rows (1, 2, 3, 5, 7, 10 %%), got %d:\n%s", len(rows), out)
	}
	asked := 0
	for _, r := range rows {
		effect, _ := strconv.ParseFloat(r[1], 64)
		// The printed noise is rounded to 0.01 %: accept what RepsFor
		// says for either end of that rounding.
		var want []string
		for _, n := range []float64{noise - 0.005, noise + 0.005} {
			reps, ok := stats.RepsFor(math.Max(n, 1e-6), effect/100, 2, 40)
			if ok {
				want = append(want, strconv.Itoa(reps))
			} else {
				want = append(want, "more than 40")
			}
		}
		if r[2] != want[0] && r[2] != want[1] {
			t.Errorf("±%s %%: printed %s repetitions, RepsFor(%.2f %% noise) says %v", r[1], r[2], noise, want)
		}
		if r[3] != "" {
			asked++
			if effect != 7 {
				t.Errorf("the row marked asked is ±%s %%, want ±7 %%", r[1])
			}
		}
	}
	if asked != 1 {
		t.Errorf("%d rows marked as asked, want 1:\n%s", asked, out)
	}
	if !strings.Contains(out, "with the scenario's repeat: 3, the smallest difference found with 80 % power is ±") {
		t.Errorf("want what the scenario's repeat: 3 can detect:\n%s", out)
	}
}

// TestParseEffect: percentages and fractions are read; a plain number of
// 1 or more is refused with the percentage spelled out, never guessed.
func TestParseEffect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"3%", 0.03, ""},
		{" 2.5 % ", 0.025, ""},
		{"0.03", 0.03, ""},
		{"3", 0, "write 3% for 3 percent"},
		{"0%", 0, "more than 0"},
		{"60%", 0, "at most 50%"},
		{"NaN", 0, "want a percentage"},
		{"", 0, "want a percentage"},
	} {
		got, err := parseEffect(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseEffect(%q) = %v, %v; want an error containing %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || math.Abs(got-tc.want) > 1e-12):
			t.Errorf("parseEffect(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestWritePlanCaution: a scenario with two repetitions per variant is
// told that every verdict will carry the caution of t with 2 degrees of
// freedom; with three, nothing is said.
func TestWritePlanCaution(t *testing.T) {
	for _, tt := range []struct {
		repeat int
		want   bool
	}{{2, true}, {3, false}} {
		cal := &stats.Calibration{Variant: "base", Rates: []float64{1000, 1130, 980, 1100}, EffectPct: 5, Family: 3, Max: 20}
		cal.Calibrate()
		var b strings.Builder
		if err := writePlan(&b, cal, []float64{0.05}, tt.repeat); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "caution: 2 repetitions: t has 2 degrees of freedom"); got != tt.want {
			t.Errorf("repeat %d: caution printed %v, want %v:\n%s", tt.repeat, got, tt.want, b.String())
		}
	}
}

// TestWriteSweepPlan: a scenario with a sweep is told the repetitions
// that name the sweep's best (stats.RepsForBest), more than the baseline
// comparisons need, and whether its repeat is enough; the sizes come from
// the plan's series, a series of one variant being no sweep.
func TestWriteSweepPlan(t *testing.T) {
	plan := &plans.Plan{Variants: []plans.Variant{{Name: "baseline"}, {Name: "solo", Series: "solo-{x}"}}}
	for i := range 11 {
		plan.Variants = append(plan.Variants, plans.Variant{Name: fmt.Sprintf("kae-soft-%d", i*10), Series: "kae-soft-{ratio}"})
	}
	sizes := sweepSizes(plan)
	if len(sizes) != 1 || sizes[0] != (sweepSize{"kae-soft-{ratio}", 11}) {
		t.Fatalf("sweepSizes = %v, want one sweep kae-soft-{ratio} of 11 values", sizes)
	}
	cal := &stats.Calibration{Variant: "baseline", NoisePct: 1.5, HasNoise: true, EffectPct: 12, Family: 12, Max: 100}
	n, _ := stats.RepsForBest(1.5, 0.12, 11, 100)
	for _, tt := range []struct {
		repeat int
		want   string
	}{
		{3, fmt.Sprintf("to name the best of kae-soft-{ratio} (11 values) when it leads every other value by 12 %%: repeat: %d (the scenario's repeat: 3 is too few)", n)},
		{n, fmt.Sprintf("repeat: %d (the scenario's repeat: %d is enough)", n, n)},
	} {
		var b strings.Builder
		if err := writeSweepPlan(&b, cal, sizes, tt.repeat); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("repeat %d: got\n%s\nwant it to contain %q", tt.repeat, b.String(), tt.want)
		}
	}
	var b strings.Builder
	if err := writeSweepPlan(&b, cal, nil, 3); err != nil || b.Len() != 0 {
		t.Errorf("no sweep: %q, %v; want nothing", b.String(), err)
	}
}
