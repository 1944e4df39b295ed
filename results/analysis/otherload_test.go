package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"math"
	"slices"
	"testing"
)

// TestGroupCPUs: client-bound rests on what kaeload's workers used of a
// group's CPUs, other groups' workers on the same CPUs included, never on
// the CPUs' busy time; other processes' share is reported apart.
func TestGroupCPUs(t *testing.T) {
	for _, tc := range []struct {
		name         string
		groups       []results.Group
		wantKaeload  []float64
		wantBound    []int
		wantOther    []int
		wantOwn      bool
		wantOthersOf float64 // Others of the first group
	}{
		{"nice 19 loop fills the CPU, kaeload 10 %",
			[]results.Group{loopGroup(0, "1", []int{1}, []float64{3}, 0.3, niceLoop)},
			[]float64{0.1}, nil, []int{0}, true, 0.9},
		{"kaeload alone saturates its CPU",
			[]results.Group{loopGroup(0, "1", []int{1}, []float64{2.94}, 2.85)},
			[]float64{0.95}, []int{0}, nil, true, 0.03},
		{"89 % is not enough",
			[]results.Group{loopGroup(0, "1", []int{1}, []float64{3}, 2.67)},
			[]float64{0.89}, nil, nil, true, 0.11},
		{"interrupts on its CPUs count on kaeload's side",
			[]results.Group{func() results.Group {
				g := loopGroup(0, "1", []int{1}, []float64{2.91}, 2.61)
				g.CPU.IRQ = 0.18 // softirq of its connections: 6 % of 3 s
				return g
			}()},
			[]float64{0.87}, []int{0}, nil, true, 0.04},
		{"interrupts already in the workers' time count once: 97 %, not 108 %",
			[]results.Group{func() results.Group {
				g := loopGroup(0, "1", []int{1}, []float64{2.91}, 2.85)
				g.CPU.IRQ = 0.39 // 13 % of 3 s, which the workers' 95 % holds too (no IRQ time accounting)
				return g
			}()},
			[]float64{0.95}, []int{0}, nil, true, 0},
		{"double-counted interrupts do not make 85 % busy CPUs client-bound",
			[]results.Group{func() results.Group {
				g := loopGroup(0, "1", []int{1}, []float64{2.55}, 2.4)
				g.CPU.IRQ = 0.38
				return g
			}()},
			[]float64{0.8}, nil, nil, true, 0},
		{"recorded before workers measured themselves: the CPUs' busy time",
			[]results.Group{loopGroup(0, "1", []int{1}, []float64{2.85}, -1)},
			[]float64{0.95}, []int{0}, nil, false, 0},
		{"three groups share CPU 1: their workers add up",
			[]results.Group{
				loopGroup(0, "1", []int{1}, []float64{2.97}, 0.95),
				loopGroup(1, "1", []int{1}, []float64{2.97}, 0.95),
				loopGroup(2, "1", []int{1}, []float64{2.97}, 0.95),
			},
			[]float64{0.95, 0.95, 0.95}, []int{0, 1, 2}, nil, true, 0.04},
		{"partial overlap counts the other worker by the CPUs shared",
			[]results.Group{
				loopGroup(0, "0-1", []int{0, 1}, []float64{3, 3}, 1.0),
				loopGroup(1, "1", []int{1}, []float64{3}, 1.5),
			},
			// (1.0 + 1.5) / 6 and (1.5 + 1.0/2) / 3
			[]float64{2.5 / 6, 2.0 / 3}, nil, []int{0, 1}, true, 1 - 2.5/6},
		{"unpinned: its process is all that is measured",
			[]results.Group{func() results.Group {
				g := loopGroup(0, "", []int{0}, []float64{0.6}, 0.6)
				g.CPUs, g.CPU.CPUs = "", "0-1"
				return g
			}()},
			[]float64{0.2}, nil, nil, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := results.NewRep(0, tc.groups)
			gcs := RepGroupCPUs(&rep)
			if len(gcs) != len(tc.wantKaeload) {
				t.Fatalf("%d groups measured, want %d", len(gcs), len(tc.wantKaeload))
			}
			for i, gc := range gcs {
				if math.Abs(gc.Kaeload-tc.wantKaeload[i]) > 1e-9 || gc.Own != tc.wantOwn {
					t.Errorf("group %d: kaeload %.4f (own %v), want %.4f (own %v)", gc.Index, gc.Kaeload, gc.Own, tc.wantKaeload[i], tc.wantOwn)
				}
			}
			if got := gcs[0].Others; math.Abs(got-tc.wantOthersOf) > 1e-9 {
				t.Errorf("group 0: others %.4f, want %.4f", got, tc.wantOthersOf)
			}
			if got := groupsOf(AnalyzeRep(&rep).ClientBound); !slices.Equal(got, tc.wantBound) {
				t.Errorf("ClientBound() = %v, want %v", got, tc.wantBound)
			}
			if got := groupsOf(AnalyzeRep(&rep).OtherLoad); !slices.Equal(got, tc.wantOther) {
				t.Errorf("OtherLoad() = %v, want %v", got, tc.wantOther)
			}
		})
	}
	irq := loopGroup(0, "1", []int{1}, []float64{2.91}, 2.61)
	irq.CPU.IRQ = 0.18
	irqRep := results.NewRep(0, []results.Group{irq})
	if got, want := AnalyzeRep(&irqRep).ClientBound.String(), "CLIENT-BOUND: kaeload used 93 % of group 0 (CPUs 1) (its workers 87 %, interrupts 6 %): this figure measures kaeload, not the server"; got != want {
		t.Errorf("clientBoundLine =\n%q\nwant\n%q", got, want)
	}
	irq.CPU.IRQ, irq.Process.Busy = 0.39, 0.95
	irqRep = results.NewRep(0, []results.Group{irq})
	want := "CLIENT-BOUND: kaeload used 97 % of group 0 (CPUs 1) (its workers 95 %, interrupts 2 %): " +
		"this figure measures kaeload, not the server"
	if got := AnalyzeRep(&irqRep).ClientBound.String(); got != want {
		t.Errorf("clientBoundLine =\n%q\nwant\n%q", got, want)
	}
	// Groups on two hosts do not share CPUs, whatever their numbers.
	a, b := loopGroup(0, "1", []int{1}, []float64{3}, 1.5), loopGroup(1, "1", []int{1}, []float64{3}, 1.5)
	b.Host = "client2"
	rep := results.NewRep(0, []results.Group{a, b})
	for _, gc := range RepGroupCPUs(&rep) {
		if gc.Kaeload != 0.5 {
			t.Errorf("group %d on its own host: kaeload %.3f, want 0.5", gc.Index, gc.Kaeload)
		}
	}
}

// loopGroup is pinnedGroup whose worker waited 1.2 s for a CPU beside the others named.
func loopGroup(index int, list string, cpus []int, perCPU []float64, proc float64, others ...results.ProcessCPU) results.Group {
	g := pinnedGroup(index, list, cpus, perCPU, proc, 1000)
	g.Window = results.Window{Start: fixture.T0, End: fixture.T0.Add(3e9)}
	if g.Process != nil {
		g.Process.Busy = proc / (3 * float64(len(cpus)))
		g.Wait = &results.CPUUsage{Seconds: 1.2, Busy: 1.2 / (3 * float64(len(cpus)))}
	}
	g.Others = others
	return g
}

// niceLoop is a busy loop at nice 19 pinned to CPU 1.
var niceLoop = results.ProcessCPU{PID: 4242, Comm: "sh", Nice: 19, Seconds: 2.7, CPUs: "1"}
