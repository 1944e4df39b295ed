package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// planEffects are the effects plan-reps always lists next to the asked one.
var planEffects = []float64{0.01, 0.02, 0.03, 0.05, 0.10}

var planRepsCommand = command{name: "plan-reps", summary: "measure the noise and say how many repetitions an effect needs",
	synopsis: "[flags] SCENARIO.yaml", help: `
Measures the scenario's baseline --calibrate times as "kaeload run" would,
estimates the noise (sd of ln(req/s) between windows) and prints the
repetitions per variant that find --effect with 80 % power over the run's
comparisons (Holm), for a sweep also those that name its best value, and
what the scenario's repeat detects. Nothing is stored. A few windows give
a rough estimate (5: within about ±40 %). repeat: {effect: 3%, max: 10}
does this on every run. See docs/statistics.md.

Examples:
  kaeload plan-reps nginx-kae.yaml --effect 3%
  kaeload plan-reps nginx-kae.yaml --effect 2% --calibrate 8`,
	min: 1, max: 1, what: "one scenario file", setup: planRepsFlags}

func planRepsFlags(fs *flag.FlagSet) body {
	var sets setFlags
	addSetFlag(fs, &sets)
	effectPct := fs.String("effect", "", "the difference to detect: a percentage (3%) or fraction (0.03); default the scenario's equivalence margin")
	windows := fs.Int("calibrate", 5, "baseline windows to measure, at least 2")
	limit := fs.Int("max", 100, "the most repetitions per variant to consider")
	progress := fs.String("progress", "auto", "progress display: auto, on, plain or off")
	return func(ctx context.Context, s stdio, pos []string) error {
		switch {
		case *windows < 2:
			return usageError(fmt.Errorf("plan-reps: --calibrate %d: want at least 2 windows, the fewest that show noise", *windows))
		case *limit < 2:
			return usageError(fmt.Errorf("plan-reps: --max %d: want at least 2", *limit))
		}
		if _, err := oneOf(fs, "--progress", *progress, progressModes...); err != nil {
			return err
		}
		plan, err := compile(pos[0], sets, nil, false)
		if err != nil {
			return err
		}
		effect := plan.Equivalence
		if *effectPct != "" {
			if effect, err = parseEffect(*effectPct); err != nil {
				return usageError(fmt.Errorf("plan-reps: --effect %q: %w", *effectPct, err))
			}
		}
		printWarnings(s.err, plan)
		log := newRedactWriter(s.err, plan.Secrets, plan.Redact)
		opts := runner.Options{Progress: s.err, ProgressMode: *progress, Abort: s.abort, Log: log}
		cal, err := runner.Calibrate(ctx, plan, *windows, effect, *limit, opts)
		flushRedacted(log)
		if err != nil {
			return interrupted(ctx, err)
		}
		repeat := plan.Repeat
		if plan.Auto != nil {
			repeat = 0 // chosen per run
		}
		if err := writePlan(s.out, cal, planEffects, repeat); err != nil {
			return err
		}
		return writeSweepPlan(s.out, cal, sweepSizes(plan), repeat)
	}
}

// sweepSize is a series of swept variants and how many values it has.
type sweepSize struct {
	series string
	values int
}

// sweepSizes are the plan's series of two swept variants or more, in order.
func sweepSizes(plan *plans.Plan) []sweepSize {
	var out []sweepSize
	for _, v := range plan.Variants {
		i := slices.IndexFunc(out, func(s sweepSize) bool { return s.series == v.Series })
		if i < 0 {
			i, out = len(out), append(out, sweepSize{v.Series, 0})
		}
		out[i].values++
	}
	return slices.DeleteFunc(out, func(s sweepSize) bool { return s.series == "" || s.values < 2 })
}

// writeSweepPlan prints, per sweep, the repetitions that name its best
// value when it leads every other by the effect (every pair is judged).
func writeSweepPlan(w io.Writer, cal *stats.Calibration, sweeps []sweepSize, repeat int) error {
	if len(sweeps) == 0 || !cal.HasNoise {
		return nil
	}
	var b strings.Builder
	b.WriteString("\nsweeps: every pair of a sweep's values is judged together, so naming its best needs more repetitions\n")
	for _, sw := range sweeps {
		n, ok := stats.RepsForBest(cal.NoisePct, cal.EffectPct/100, sw.values, cal.Max)
		need := fmt.Sprintf("repeat: %d", n)
		if !ok {
			need = fmt.Sprintf("more than %d repetitions", cal.Max)
		}
		fmt.Fprintf(&b, "to name the best of %s (%d values) when it leads every other value by %g %%: %s", sw.series, sw.values, cal.EffectPct, need)
		if repeat >= 2 && ok {
			verdict := map[bool]string{false: "enough", true: "too few"}[repeat < n]
			fmt.Fprintf(&b, " (the scenario's repeat: %d is %s)", repeat, verdict)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writePlan prints the noise, the repetitions for the asked and usual
// effects, and what the scenario's repeat (0: none) detects.
func writePlan(w io.Writer, cal *stats.Calibration, effects []float64, repeat int) error {
	var b strings.Builder
	mean := format.Rate(stats.Summarize(cal.Rates).Mean)
	fmt.Fprintf(&b, "calibration: variant %s, %d good windows, mean %s req/s\n", cal.Variant, len(cal.Rates), mean)
	if !cal.HasNoise {
		b.WriteString("no noise estimate: fewer than two windows completed with a positive rate; fix the failures above and rerun\n")
		_, err := io.WriteString(w, b.String())
		return cmp.Or(err, fmt.Errorf("%w: no noise estimate from %d good windows", errFailed, len(cal.Rates)))
	}
	fmt.Fprintf(&b, "noise: %.2f %% (standard deviation of ln(req/s) between windows)\n", cal.NoisePct)
	fmt.Fprintf(&b, "comparisons judged together: %d (Holm; the MDE uses the level %.4g)\n\n", cal.Family, stats.Alpha/float64(cal.Family))
	fmt.Fprintf(&b, "effect    repetitions per variant (80 %% power)\n")
	asked := cal.EffectPct / 100
	rows := slices.Clone(effects)
	if !slices.ContainsFunc(rows, func(e float64) bool { return math.Abs(e-asked) < 1e-12 }) {
		rows = append(rows, asked)
	}
	slices.Sort(rows)
	for _, e := range rows {
		n, ok := stats.RepsFor(cal.NoisePct, e, cal.Family, cal.Max)
		cell := strconv.Itoa(n)
		if !ok {
			cell = fmt.Sprintf("more than %d", cal.Max)
		}
		if math.Abs(e-asked) < 1e-12 {
			cell += "   <- asked"
		}
		fmt.Fprintf(&b, "±%-7s %s\n", strconv.FormatFloat(e*100, 'g', 4, 64)+" %", cell)
	}
	b.WriteString("\n")
	if cal.Capped {
		fmt.Fprintf(&b, "±%g %% needs more than %d repetitions per variant here: reduce the noise (longer windows, a quieter machine) or accept a larger effect\n", cal.EffectPct, cal.Max)
	} else {
		fmt.Fprintf(&b, "to detect ±%g %%: repeat: %d (or repeat: {effect: %g%%, max: %d} to calibrate on every run)\n", cal.EffectPct, cal.Repeat, cal.EffectPct, max(cal.Repeat, 10))
	}
	if repeat >= 2 {
		mde := "not determinable"
		if pct := stats.PlannedMDEPct(cal.NoisePct, repeat, cal.Family); !math.IsInf(pct, 0) && !math.IsNaN(pct) {
			mde = format.Bound(pct)
		}
		fmt.Fprintf(&b, "with the scenario's repeat: %d, the smallest difference found with 80 %% power is %s\n", repeat, mde)
		if repeat < 3 {
			fmt.Fprintf(&b, "caution: %d repetitions: t has %d degrees of freedom, and every verdict will say so; use 3 or more\n", repeat, 2*repeat-2)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// readShare reads "3%" or a plain number as a fraction; pct says which.
func readShare(s string) (v float64, pct, ok bool) {
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, pct, false
	}
	if pct {
		v /= 100
	}
	return v, pct, true
}

// parseEffect reads an effect as a percentage ("3%") or a fraction (0.03).
func parseEffect(s string) (float64, error) {
	text := strings.TrimSpace(s)
	f, pct, ok := readShare(text)
	switch {
	case !ok:
		return 0, fmt.Errorf("want a percentage such as 3%% or a fraction such as 0.03")
	case !pct && f >= 1:
		return 0, fmt.Errorf("%s as a plain number would be a fraction of the whole (0.03 = 3%%); write %s%% for %s percent", text, text, text)
	case f <= 0 || f > 0.5:
		return 0, fmt.Errorf("want more than 0 and at most 50%%, got %s", strconv.FormatFloat(f*100, 'g', 4, 64)+"%")
	}
	return f, nil
}
