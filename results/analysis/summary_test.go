package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/notes"
	"slices"
	"strings"
	"testing"
)

// groupsOf is the indexes of the groups a ClientBound or OtherLoad note names; nil for a zero note.
func groupsOf(n notes.Note) []int {
	var out []int
	for _, g := range n.N("groups") {
		out = append(out, g.Args["index"].(int))
	}
	return out
}

func TestClientBound(t *testing.T) {
	rep := fixture.Rep(0, 6, 1000, 1000, 1000)
	rep.Groups[0].CPU = &results.CPUUsage{Busy: 0.8999}
	rep.Groups[1].CPU = &results.CPUUsage{Busy: 0.90}
	rep.Groups[2].CPU = nil
	rep.Groups[2].Index = 7
	if got, want := groupsOf(AnalyzeRep(&rep).ClientBound), []int{1}; !slices.Equal(got, want) {
		t.Errorf("ClientBound() = %v, want %v (0.8999 is below ClientBoundBusy, 0.90 is not)", got, want)
	}
	rep.Groups[2].CPU = &results.CPUUsage{Busy: 1}
	if got, want := groupsOf(AnalyzeRep(&rep).ClientBound), []int{1, 7}; !slices.Equal(got, want) {
		t.Errorf("ClientBound() = %v, want Group.Index values %v", got, want)
	}
	if got := groupsOf(AnalyzeRep(&results.Rep{}).ClientBound); got != nil {
		t.Errorf("ClientBound() of a rep without groups = %v, want nil", got)
	}
	if got, want := AnalyzeRep(&rep).ClientBound.String(), "CLIENT-BOUND: group 1 (CPUs 4-7) was 90 % busy, group 7 (CPUs 8-11) was 100 % busy: this figure measures kaeload, not the server"; got != want {
		t.Errorf("clientBoundLine = %q\nwant %q", got, want)
	}
}

func TestAnnotate(t *testing.T) {
	r := fixture.SweepRun()
	r.Warnings = results.Warnings{{Message: "server restarted once"}}
	Annotate(r)
	Annotate(r)
	want := []string{
		"server restarted once",
		"variant kae-soft-0, repetition 1: CLIENT-BOUND: group 1 (CPUs 4-7) was 97 % busy: this figure measures kaeload, not the server",
		"probe kae_ops failed in 1 of 15 windows (variant kae-soft-33): exit status 1: cat: /sys/class/kae/ops: No such file or directory; no delta was recorded there, and a threshold on the probe is crossed",
	}
	if !slices.Equal(r.Warnings.Strings(), want) {
		t.Errorf("Warnings after Annotate twice = %q\nwant %q", r.Warnings, want)
	}
	c := fixture.CompareRun()
	Annotate(c)
	if len(c.Warnings) != 0 {
		t.Errorf("Annotate of a run without CPU readings added %q", c.Warnings)
	}
}

func TestSummarySweeps(t *testing.T) {
	s := Analyze(fixture.SweepRun()).Summary
	if len(s.Sweeps) != 1 {
		t.Fatalf("%d sweeps, want 1", len(s.Sweeps))
	}
	sw := s.Sweeps[0]
	// Plan order 0, 10, 100, 33 (variants 1..4); numeric order 0, 10, 33, 100.
	if got, want := sw.Variants, []int{1, 2, 4, 3}; !slices.Equal(got, want) || !sw.Numeric {
		t.Errorf("sweep order = %v numeric %v, want %v numeric", got, sw.Numeric, want)
	}
	if got, want := sw.Labels, []string{"0", "10", "33", "100"}; !slices.Equal(got, want) {
		t.Errorf("sweep labels = %q, want %q", got, want)
	}
	if sw.Best != 4 || !s.Variants[4].Best || s.Variants[2].Best {
		t.Errorf("best = %d, want 4 (kae-soft-33) and only it marked", sw.Best)
	}
	k := &s.Variants[4]
	// Probe: 0.67 ops per request; the second of three readings failed.
	p := k.Probes[0]
	if p.Name != "kae_ops" || p.N != 2 || p.Failed != 1 || !fixture.Near(p.MeanDelta, 0.67*(362400+362200)/2, 1e-12) ||
		p.PerRequest == nil || !fixture.Near(*p.PerRequest, 0.67, 1e-12) || !strings.Contains(p.FirstError, "No such file") {
		t.Errorf("kae-soft-33 probe = %+v, want n 2, failed 1, mean %v, 0.67 per request", p, 0.67*(362400+362200)/2)
	}
	// 3 reps × 3.0 s server CPU for 1,086,600 requests.
	if x, ok := k.RequestsPerServerCPU(); !ok || !fixture.Near(x, 1086600.0/9, 1e-12) {
		t.Errorf("kae-soft-33 requests per server CPU-second = %v %v, want %v", x, ok, 1086600.0/9)
	}
	if s.Variants[1].ClientBoundReps != 1 || !fixture.Near(s.Variants[1].ClientBusyMax, 0.97, 0) {
		t.Errorf("kae-soft-0: %d client-bound reps, busy max %v; want 1 and 0.97", s.Variants[1].ClientBoundReps, s.Variants[1].ClientBusyMax)
	}
	// The merged handshake histogram holds every repetition's handshakes.
	if got, want := k.Handshake.TotalCount(), int64(3*2*200); got != want {
		t.Errorf("merged handshake histogram holds %d values, want %d", got, want)
	}
}

func TestSweepOrder(t *testing.T) {
	v := func(name string, sweep map[string]string, rate uint64) results.Variant {
		return results.Variant{Name: name, Series: "s", Sweep: sweep, Reps: []results.Rep{fixture.Rep(0, 5, rate)}}
	}
	tests := []struct {
		name     string
		variants []results.Variant
		order    []int
		labels   []string
		numeric  bool
		best     int
	}{
		{"numeric with decimals and negatives",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"x": "2.5"}, 10), v("b", map[string]string{"x": "-1"}, 30), v("c", map[string]string{"x": "1e1"}, 20)},
			[]int{2, 1, 3}, []string{"-1", "2.5", "1e1"}, true, 2},
		{"not all numbers: run order",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"x": "10"}, 10), v("b", map[string]string{"x": "auto"}, 10), v("c", map[string]string{"x": "2"}, 10)},
			[]int{1, 2, 3}, []string{"10", "auto", "2"}, false, 1},
		{"two keys: run order",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"x": "2", "y": "b"}, 10), v("b", map[string]string{"x": "1", "y": "a"}, 40)},
			[]int{1, 2}, []string{"x=2 y=b", "x=1 y=a"}, false, 2},
		{"NaN is not a number",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"x": "NaN"}, 10), v("b", map[string]string{"x": "1"}, 10)},
			[]int{1, 2}, []string{"NaN", "1"}, false, 1},
		{"percent is a number",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"r": "50"}, 10), v("b", map[string]string{"r": "0"}, 30), v("c", map[string]string{"r": " 33% "}, 20)},
			[]int{2, 3, 1}, []string{"0", " 33% ", "50"}, true, 2},
		{"a key at one value is no swept key",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"engine": "kae", "r": "33"}, 10), v("b", map[string]string{"engine": "kae", "r": "10"}, 30)},
			[]int{2, 1}, []string{"10", "33"}, true, 2},
		{"two keys varying, one missing from a variant",
			[]results.Variant{{Name: "base"}, v("a", map[string]string{"jobs": "8", "r": "0"}, 10), v("b", map[string]string{"r": "50"}, 30)},
			[]int{1, 2}, []string{"jobs=8 r=0", "r=50"}, false, 2},
	}
	for _, tt := range tests {
		r := &results.Run{Name: "r", Variants: tt.variants}
		s := Analyze(r).Summary
		if len(s.Sweeps) != 1 {
			t.Fatalf("%s: %d sweeps, want 1", tt.name, len(s.Sweeps))
		}
		sw := s.Sweeps[0]
		// One repetition each: the top is known, but no pair of values
		// can be tested, so the sweep claims neither a best nor a
		// plateau.
		if tt.numeric && len(sw.Values) != len(sw.Variants) || !tt.numeric && sw.Values != nil {
			t.Errorf("%s: values %v for %d variants, numeric %v", tt.name, sw.Values, len(sw.Variants), tt.numeric)
		}
		if !slices.Equal(sw.Variants, tt.order) || !slices.Equal(sw.Labels, tt.labels) || sw.Numeric != tt.numeric ||
			sw.Top != tt.best || sw.Best != -1 || len(sw.Plateau) != 0 || sw.Family != 0 {
			t.Errorf("%s: order %v labels %q numeric %v top %d best %d plateau %v family %d, want %v %q %v top %d best -1 plateau [] family 0",
				tt.name, sw.Variants, sw.Labels, sw.Numeric, sw.Top, sw.Best, sw.Plateau, sw.Family, tt.order, tt.labels, tt.numeric, tt.best)
		}
		for _, i := range sw.Variants {
			if v := s.Variants[i]; v.Best || v.Plateau {
				t.Errorf("%s: variant %s marked best %v plateau %v, measured once", tt.name, v.Name, v.Best, v.Plateau)
			}
		}
	}
	// A series of one variant is no sweep.
	r := &results.Run{Name: "r", Variants: []results.Variant{{Name: "base"}, v("a", map[string]string{"x": "1"}, 10)}}
	if s := Analyze(r).Summary; len(s.Sweeps) != 0 || s.Variants[1].Best {
		t.Errorf("a one-variant series gave sweeps %+v", s.Sweeps)
	}
}

// TestSweepPlateauUntested: a sweep claims a best or a plateau only
// from a pair of values it tested. A value measured alone (the others
// once, or not at all) is not "significantly faster than every other".
func TestSweepPlateauUntested(t *testing.T) {
	tests := []struct {
		name    string
		samples [][]float64
		top     int
		plateau []int
		best    int
	}{
		{"every value once", [][]float64{{100}, {50}, {10}}, 0, nil, -1},
		{"one value three times, the others never", [][]float64{{}, {100, 101, 102}, {}}, 1, nil, -1},
		{"one value three times, the others once", [][]float64{{10}, {100, 101, 102}, {500}}, 1, nil, -1},
		{"two values tested, one once", [][]float64{{100, 101, 102}, {50, 51, 50}, {10}}, 0, []int{0, 2}, -1},
		{"three values tested", [][]float64{{100, 101, 102}, {50, 51, 50}, {10, 11, 10}}, 0, []int{0}, 0},
	}
	for _, tt := range tests {
		j := plateauOf(tt.samples)
		if j.Top != tt.top || !slices.Equal(j.Plateau, tt.plateau) || j.Best != tt.best {
			t.Errorf("%s: top %d plateau %v best %d (family %d), want top %d plateau %v best %d",
				tt.name, j.Top, j.Plateau, j.Best, j.Family, tt.top, tt.plateau, tt.best)
		}
	}
}

// TestSummaryMergesExactly: a variant's latency histograms hold every
// value of every group of every repetition, bucket by bucket, so their
// percentiles are those of one histogram that recorded all the values.
func TestSummaryMergesExactly(t *testing.T) {
	r := fixture.CompareRun()
	s := Analyze(r).Summary
	v, vs := &r.Variants[1], &s.Variants[1]
	for _, m := range []struct {
		name string
		got  *results.Histogram
		pick func(*results.Latency) *results.Histogram
	}{
		{"connect", vs.Connect, func(l *results.Latency) *results.Histogram { return l.Connect }},
		{"handshake", vs.Handshake, func(l *results.Latency) *results.Histogram { return l.Handshake }},
		{"ttfb", vs.TTFB, func(l *results.Latency) *results.Histogram { return l.TTFB }},
		{"total", vs.Total, func(l *results.Latency) *results.Histogram { return l.Total }},
	} {
		want := results.NewHistogram()
		for i := range v.Reps {
			for j := range v.Reps[i].Groups {
				for _, b := range m.pick(&v.Reps[i].Groups[j].Latency).Distribution() {
					if b.Count > 0 {
						if err := want.RecordValues(b.From, b.Count); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
		if got, want := m.got.TotalCount(), int64(3*2*200); got != want {
			t.Errorf("%s: merged count = %d, want %d", m.name, got, want)
		}
		for _, q := range []float64{1, 50, 90, 99, 99.9, 100} {
			if g, w := m.got.ValueAtQuantile(q), want.ValueAtQuantile(q); g != w {
				t.Errorf("%s: merged p%g = %d µs, want %d", m.name, q, g, w)
			}
		}
	}
}

// plateauOf is sweepPlateau's judgement of a sweep whose variants are samples' indexes.
func plateauOf(samples [][]float64) SweepSummary {
	sw := SweepSummary{Variants: make([]int, len(samples))}
	for i := range sw.Variants {
		sw.Variants[i] = i
	}
	sweepPlateau(&sw, samples, nil)
	return sw
}
