package softratio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
)

// TestSoftRatioWords: the prediction in the words, with the bound on
// each side.
func TestSoftRatioWords(t *testing.T) {
	m := softratio.Model{A: 1.30e-3, B: 0.35e-3, Beta: 0.95, CPUs: 1, Capacity: 600}
	p := softratio.Predict(softratio.Input{Windows: softratio.Synth(m, softratio.FiveRatios, 1, 0, nil)})
	got := softRatioWords(p)
	want := "best soft ratio 49 predicted, peak 1169 req/s: below it the device limits at 600 ops/s, above it the server's CPU at 0.35 → 1.30 ms per request"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if len(p.Sides) != 2 || math.Abs(p.Sides[0].To-p.Ratio.Value) > 1e-12 || p.Sides[1].From != p.Sides[0].To {
		t.Errorf("sides %v do not meet at r* %g", p.Sides, p.Ratio.Value)
	}
	p = softratio.Predict(softratio.Input{Windows: softratio.Synth(m, softratio.FiveRatios, 3, 0.02, rand.New(rand.NewPCG(3, 3)))})
	if got := softRatioWords(p); !strings.HasPrefix(got, fmt.Sprintf("best soft ratio %.0f predicted (%.0f–%.0f), peak",
		100*p.Ratio.Value, 100*p.Ratio.Low, 100*p.Ratio.High)) || p.Ratio.Low == p.Ratio.High {
		t.Errorf("with repetitions: %q", got)
	}
	cpu := softratio.Model{A: 2e-3, B: 1e-3, Beta: 0.9, CPUs: 4, Capacity: 1e5}
	p = softratio.Predict(softratio.Input{Windows: softratio.Synth(cpu, softratio.FiveRatios, 1, 0, nil), Capacity: 1e5})
	if got, want := softRatioWords(p), "best soft ratio 0 predicted, peak 3600 req/s: at every ratio the server's CPU at 1.00 → 2.00 ms per request"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestSoftRatioWordsWithout: a prediction that failed says why, and what
// would give the device's capacity.
func TestSoftRatioWordsWithout(t *testing.T) {
	for _, st := range []softratio.Code{softratio.TooFewRatios, softratio.BadWindow, softratio.CPUsDiffer, softratio.BadCapacity, softratio.BadFit, softratio.NoCapacity} {
		p := softratio.Prediction{Status: st}
		if got := softRatioWords(p); !strings.HasPrefix(got, "no soft-ratio prediction") || strings.Contains(got, "%!") {
			t.Errorf("%s: %q", st, got)
		}
	}
	p := softratio.Prediction{Status: softratio.NoCapacity}
	if got, want := softRatioWords(p), "no soft-ratio prediction: the device's capacity is unknown; it needs a window "+
		"where the device was the bottleneck (server CPUs not saturated, soft ratio below 100), or the scenario's "+
		"accelerator: capacity (signatures/s) or speed (an openssl speed -async_jobs output)"; got != want {
		t.Errorf("no capacity: %q", got)
	}
}

// softRatioWords is the prediction's note in words, as the reports say it.
func softRatioWords(p softratio.Prediction) string {
	return notes.New(notes.SoftRatio, "prediction", p).String()
}
