package runner

import (
	"context"
	"fmt"
	"slices"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/stats"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Calibrate measures the noise before a run chooses its repetitions: it runs
// plan's baseline windows times, unrecorded, and returns the rates with the
// repetitions that detect effect, at most limit.
func Calibrate(ctx context.Context, plan *plans.Plan, windows int, effect float64, limit int, opts Options) (*stats.Calibration, error) {
	base := max(0, slices.IndexFunc(plan.Variants, func(v plans.Variant) bool { return v.Name == plan.Baseline }))
	cp := *plan
	cp.Variants = []plans.Variant{plan.Variants[base]}
	cp.Baseline, cp.Repeat, cp.Auto, cp.Search = "", windows, nil, nil
	if cp.Order != results.OrderSequential {
		cp.Order = results.OrderRandomized
	}
	opts.Outputs = nil
	cal := &stats.Calibration{Variant: plan.Variants[base].Name, EffectPct: effect * 100, Family: max(1, len(plan.Variants)-1), Max: limit}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "calibration: measuring variant %s %d times to estimate the noise\n", cal.Variant, windows)
	}
	r, err := Run(ctx, &cp, opts)
	if r != nil && len(r.Variants) > 0 {
		for _, rep := range r.Variants[0].Reps {
			if rep.Failed == nil {
				cal.Rates = append(cal.Rates, rep.Total.Rate())
			}
		}
	}
	if err != nil {
		return cal, fmt.Errorf("calibration: %w", err)
	}
	if r != nil && len(r.NotMeasured) > 0 {
		// Without the baseline's server there is nothing to calibrate on.
		nm := r.NotMeasured[0]
		return cal, fmt.Errorf("calibration: variant %s not measured: %s", nm.Variant, nm.Reason)
	}
	cal.Calibrate()
	return cal, nil
}

// calibrationLine says what a calibration found, in one sentence.
func calibrationLine(c *stats.Calibration) string {
	if !c.HasNoise {
		return fmt.Sprintf("calibration: no noise estimate from %d good windows of %s; using the cap, %d repetitions", len(c.Rates), c.Variant, c.Repeat)
	}
	noise := fmt.Sprintf("calibration: %s varies by %.2f %% (sd of ln req/s over %d windows); ", c.Variant, c.NoisePct, len(c.Rates))
	if c.Capped {
		return noise + fmt.Sprintf("even the cap of %d repetitions per variant cannot detect ±%g %% at %.0f %% power over %s: using %d",
			c.Max, c.EffectPct, stats.Power*100, comparisons(c.Family), c.Repeat)
	}
	return noise + fmt.Sprintf("%d repetitions per variant detect ±%g %% at %.0f %% power over %s", c.Repeat, c.EffectPct, stats.Power*100, comparisons(c.Family))
}

// comparisons is "1 comparison" or "N comparisons".
func comparisons(n int) string {
	if n == 1 {
		return "1 comparison"
	}
	return fmt.Sprintf("%d comparisons", n)
}
