package runner

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestRunAccel: the built-in target's accelerator takes each variant's env
// at its session, and its counters are the window's probes: "off" keeps
// every signature in software, a soft ratio of 25 offloads three in four
// within 1 %, and a bad ratio gives up on its variant only.
func TestRunAccel(t *testing.T) {
	endToEndOnce(t, "the accelerator's split in a real window")
	cfg := accel.Defaults()
	cfg.Capacity, cfg.SoftCPU = 5000, 100*time.Microsecond
	p := builtinPlan(time.Second, nil)
	p.Target.Builtin = &plans.Builtin{Cert: "ecdsa-p256", Accel: &cfg}
	p.Variants = []plans.Variant{
		{Name: "no-kae", Env: map[string]string{accel.SpecEnv: "off"}},
		{Name: "kae-25", Env: map[string]string{accel.RatioEnv: "25"}},
		{Name: "bad", Env: map[string]string{accel.RatioEnv: "abc"}},
	}
	run, err := Run(context.Background(), p, testOptions(t, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Variants) != 2 || len(run.NotMeasured) != 1 || !strings.Contains(run.NotMeasured[0].Reason, accel.RatioEnv) {
		t.Fatalf("measured %d variants, not measured %+v; want 2 and bad's ratio", len(run.Variants), run.NotMeasured)
	}
	for i, wantOff := range []float64{0, 0.75} {
		pr := run.Variants[i].Reps[0].Probes
		soft, off, retry := pr["accel_soft"].Delta(), pr["accel_offload"].Delta(), pr["accel_retry"].Delta()
		if all := soft + off; all < 100 || math.Abs(off/all-wantOff) > 0.01 || retry != 0 || pr["accel_busy_ms"].Delta() < 0 {
			t.Errorf("%s: probes %+v; want %.2f of 100+ offloaded, no RETRY", run.Variants[i].Name, pr, wantOff)
		}
	}
}
