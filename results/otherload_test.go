package results

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// loopGroup is group index pinned to CPU list cpus (the CPUs of perCPU)
// over a 3 s window: its CPUs busy perCPU seconds each, its worker using
// proc CPU-seconds (< 0: not measured) and waiting 1.2 s for a CPU, and
// others the other processes it named.
func loopGroup(index int, list string, cpus []int, perCPU []float64, proc float64, others ...ProcessCPU) Group {
	g := pinnedGroup(index, list, cpus, perCPU, proc, 1000)
	g.Window = Window{Start: t0, End: t0.Add(3e9)}
	if g.Process != nil {
		g.Process.Busy = proc / (3 * float64(len(cpus)))
		g.Wait = &CPUUsage{Seconds: 1.2, Busy: 1.2 / (3 * float64(len(cpus)))}
	}
	g.Others = others
	return g
}

// niceLoop is a busy loop at nice 19 pinned to CPU 1.
var niceLoop = ProcessCPU{PID: 4242, Comm: "sh", Nice: 19, Seconds: 2.7, CPUs: "1"}

// TestGroupCPUs: client-bound rests on what kaeload's workers used of a
// group's CPUs, other groups' workers on the same CPUs included, never on
// the CPUs' busy time; other processes' share is reported apart.
func TestGroupCPUs(t *testing.T) {
	for _, tc := range []struct {
		name         string
		groups       []Group
		wantKaeload  []float64
		wantBound    []int
		wantOther    []int
		wantOwn      bool
		wantOthersOf float64 // Others of the first group
	}{
		{"nice 19 loop fills the CPU, kaeload 10 %",
			[]Group{loopGroup(0, "1", []int{1}, []float64{3}, 0.3, niceLoop)},
			[]float64{0.1}, nil, []int{0}, true, 0.9},
		{"kaeload alone saturates its CPU",
			[]Group{loopGroup(0, "1", []int{1}, []float64{2.94}, 2.85)},
			[]float64{0.95}, []int{0}, nil, true, 0.03},
		{"89 % is not enough",
			[]Group{loopGroup(0, "1", []int{1}, []float64{3}, 2.67)},
			[]float64{0.89}, nil, nil, true, 0.11},
		{"interrupts on its CPUs count on kaeload's side",
			[]Group{func() Group {
				g := loopGroup(0, "1", []int{1}, []float64{2.91}, 2.61)
				g.CPU.IRQ = 0.18 // softirq of its connections: 6 % of 3 s
				return g
			}()},
			[]float64{0.87}, []int{0}, nil, true, 0.04},
		{"recorded before workers measured themselves: the CPUs' busy time",
			[]Group{loopGroup(0, "1", []int{1}, []float64{2.85}, -1)},
			[]float64{0.95}, []int{0}, nil, false, 0},
		{"three groups share CPU 1: their workers add up",
			[]Group{
				loopGroup(0, "1", []int{1}, []float64{2.97}, 0.95),
				loopGroup(1, "1", []int{1}, []float64{2.97}, 0.95),
				loopGroup(2, "1", []int{1}, []float64{2.97}, 0.95),
			},
			[]float64{0.95, 0.95, 0.95}, []int{0, 1, 2}, nil, true, 0.04},
		{"partial overlap counts the other worker by the CPUs shared",
			[]Group{
				loopGroup(0, "0-1", []int{0, 1}, []float64{3, 3}, 1.0),
				loopGroup(1, "1", []int{1}, []float64{3}, 1.5),
			},
			// (1.0 + 1.5) / 6 and (1.5 + 1.0/2) / 3
			[]float64{2.5 / 6, 2.0 / 3}, nil, []int{0, 1}, true, 1 - 2.5/6},
		{"unpinned: its process is all that is measured",
			[]Group{func() Group {
				g := loopGroup(0, "", []int{0}, []float64{0.6}, 0.6)
				g.CPUs, g.CPU.CPUs = "", "0-1"
				return g
			}()},
			[]float64{0.2}, nil, nil, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := NewRep(0, tc.groups)
			gcs := rep.GroupCPUs()
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
			if got := rep.ClientBound(); !slices.Equal(got, tc.wantBound) {
				t.Errorf("ClientBound() = %v, want %v", got, tc.wantBound)
			}
			if got := rep.OtherLoad(); !slices.Equal(got, tc.wantOther) {
				t.Errorf("OtherLoad() = %v, want %v", got, tc.wantOther)
			}
		})
	}
	irq := loopGroup(0, "1", []int{1}, []float64{2.91}, 2.61)
	irq.CPU.IRQ = 0.18
	irqRep := NewRep(0, []Group{irq})
	if got, want := clientBoundLine(&irqRep), "CLIENT-BOUND: kaeload used 93 % of group 0 (CPUs 1) (its workers 87 %, interrupts 6 %): this figure measures kaeload, not the server"; got != want {
		t.Errorf("clientBoundLine =\n%q\nwant\n%q", got, want)
	}
	// Groups on two hosts do not share CPUs, whatever their numbers.
	a, b := loopGroup(0, "1", []int{1}, []float64{3}, 1.5), loopGroup(1, "1", []int{1}, []float64{3}, 1.5)
	b.Host = "client2"
	rep := NewRep(0, []Group{a, b})
	for _, gc := range rep.GroupCPUs() {
		if gc.Kaeload != 0.5 {
			t.Errorf("group %d on its own host: kaeload %.3f, want 0.5", gc.Index, gc.Kaeload)
		}
	}
}

// otherLoadRun is two variants of two repetitions: the baseline's first
// repetition ran beside a busy loop at nice 19 that kept its CPU full
// while kaeload used 10 % of it (server-bound), kae's second saturated
// its CPU with kaeload alone.
func otherLoadRun() *Run {
	r := compareRun()
	r.Variants[0].Reps = r.Variants[0].Reps[:2]
	r.Variants[1].Reps = r.Variants[1].Reps[:2]
	base := &r.Variants[0].Reps[0]
	base.Groups[0] = loopGroup(0, "1", []int{1}, []float64{3}, 0.3, niceLoop,
		ProcessCPU{PID: 77, Comm: "node_exporter", Seconds: 0.2, CPUs: "0-1"})
	base.Groups[0].Requests = 90000
	*base = NewRep(0, base.Groups)
	kae := &r.Variants[1].Reps[1]
	kae.Groups[1] = loopGroup(1, "4", []int{4}, []float64{2.97}, 2.91)
	kae.Groups[1].Requests = 181000
	*kae = NewRep(1, kae.Groups)
	return r
}

// TestOtherLoadInEveryOutput: the busy loop at nice 19 does not make the
// baseline client-bound in any output, and every output that shows the
// CLIENT-BOUND verdict (text, Markdown, CSV, the JSON summary, run.json's
// warnings) names the loop under OTHER LOAD instead, while kaeload
// saturating its CPU alone is still CLIENT-BOUND.
func TestOtherLoadInEveryOutput(t *testing.T) {
	r := otherLoadRun()
	const loop = "sh (pid 4242, nice 19, CPUs 1) 2.70 CPU-s"
	want := "variant baseline, repetition 1: OTHER LOAD: other processes took 90 % of group 0 (CPUs 1), kaeload 10 % " +
		"(its threads waited 1.20 s in all for a CPU); busiest: " + loop + ", node_exporter (pid 77, CPUs 0-1) 0.20 CPU-s: " +
		"not kaeload's own use, which alone makes a result client-bound"
	bound := "variant kae, repetition 2: CLIENT-BOUND: kaeload used 97 % of group 1 (CPUs 4): this figure measures kaeload, not the server"
	ws := r.AllWarnings()
	for _, w := range []string{want, bound} {
		if !slices.Contains(ws, w) {
			t.Errorf("warnings lack\n%q\nhave %q", w, ws)
		}
	}
	if slices.ContainsFunc(ws, func(w string) bool {
		return strings.HasPrefix(w, "variant baseline") && strings.Contains(w, "CLIENT-BOUND")
	}) {
		t.Errorf("the baseline is flagged client-bound: %q", ws)
	}
	r.Annotate()
	if !slices.Contains(r.Warnings, want) {
		t.Errorf("Annotate did not store the OTHER LOAD warning: %q", r.Warnings)
	}

	var text, md bytes.Buffer
	if err := WriteText(&text, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, "OTHER LOAD: other processes took 90 % of group 0 (CPUs 1)") || !strings.Contains(out, loop) {
			t.Errorf("%s report does not name the loop under OTHER LOAD:\n%s", name, out)
		}
		if !strings.Contains(out, "CLIENT-BOUND: kaeload used 97 % of group 1 (CPUs 4)") {
			t.Errorf("%s report does not flag kae's second repetition CLIENT-BOUND:\n%s", name, out)
		}
		if !strings.Contains(out, "OTHER LOAD (1 of 2 reps)") {
			t.Errorf("%s report's comparison does not note the other load:\n%s", name, out)
		}
	}

	rows := readCSV(t, r)
	find := func(variant, rep string) map[string]string {
		for _, row := range rows {
			if row["variant"] == variant && row["rep"] == rep {
				return row
			}
		}
		t.Fatalf("no CSV row %s/%s", variant, rep)
		return nil
	}
	for _, tc := range []struct{ variant, rep, col, want string }{
		{"baseline", "1", "client_bound", "false"},
		{"baseline", "1", "other_load", "true"},
		{"baseline", "1", "client_other_share", "0.9000"},
		{"baseline", "1", "other_busiest", "sh pid 4242"},
		{"baseline", "2", "other_load", "false"},
		{"baseline", "all", "other_load", "true"},
		{"baseline", "all", "client_bound", "false"},
		{"kae", "2", "client_bound", "true"},
		{"kae", "2", "other_load", "false"},
		{"kae", "all", "client_bound", "true"},
	} {
		if got := find(tc.variant, tc.rep)[tc.col]; got != tc.want {
			t.Errorf("CSV %s rep %s %s = %q, want %q", tc.variant, tc.rep, tc.col, got, tc.want)
		}
	}

	var js bytes.Buffer
	if err := WriteSummaryJSON(&js, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	var sum SummaryJSON
	if err := json.Unmarshal(js.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if got := sum.Variants[0]; got.OtherLoadReps != 1 || got.ClientBoundReps != 0 {
		t.Errorf("JSON summary baseline: other_load_reps %d, client_bound_reps %d; want 1, 0", got.OtherLoadReps, got.ClientBoundReps)
	}
	if got := sum.Variants[1].ClientBoundReps; got != 1 {
		t.Errorf("JSON summary kae: client_bound_reps %d, want 1", got)
	}
	if !slices.Contains(sum.Warnings, want) {
		t.Errorf("JSON summary warnings lack the OTHER LOAD line: %q", sum.Warnings)
	}
	if got := OtherLoadGroups(r); len(got) != 1 || !strings.Contains(got[0], loop) {
		t.Errorf("OtherLoadGroups = %q", got)
	}
	if got, want := ClientBoundGroups(r), []string{"variant kae, repetition 2: kaeload used 97 % of group 1 (CPUs 4)"}; !slices.Equal(got, want) {
		t.Errorf("ClientBoundGroups = %q, want %q", got, want)
	}
}

// TestSlotMemory: a slot costs the workers' private memory grown over
// their idle size, less SlotMemoryBase per worker, over the slots; n/a
// when the growth is under twice the base.
func TestSlotMemory(t *testing.T) {
	const mib = 1 << 20
	mem := func(slots int, ready, peak uint64) Group {
		return Group{Slots: slots, MemoryReady: ready, MemoryPeak: peak, PeakRSS: peak + 20*mib}
	}
	for _, tc := range []struct {
		name    string
		groups  []Group
		known   bool
		perSlot float64
		line    string
	}{
		{"1,024 slots", []Group{mem(1024, 1.5*mib, 38.5*mib)}, true, 31 * 1024,
			"38.5 MiB private at peak in 1 worker (1.5 MiB idle); 31.0 KiB per connection slot"},
		{"the quick start's few slots", []Group{mem(8, 1.5*mib, 7*mib)}, false, 0,
			"7.0 MiB private at peak in 1 worker (1.5 MiB idle); per connection slot n/a: 8 slots grew it by 5.5 MiB, under twice the 6.0 MiB any loaded worker grows by"},
		{"128 groups of one slot", slices.Repeat([]Group{mem(1, 1.5*mib, 7*mib)}, 128), false, 0,
			"896.0 MiB private at peak in 128 workers (192.0 MiB idle); per connection slot n/a: 128 slots grew it by 704.0 MiB, under twice the 768.0 MiB any loaded worker grows by"},
		{"two workers, one not measured", []Group{mem(512, 2*mib, 26*mib), {Slots: 512, PeakRSS: 40 * mib}}, true, 18 * mib / 512,
			"26.0 MiB private at peak in 1 worker (2.0 MiB idle); 36.0 KiB per connection slot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := NewRep(0, tc.groups)
			m, ok := rep.SlotMemory()
			if !ok || m.Known != tc.known || math.Abs(m.PerSlot-tc.perSlot) > 1e-6 {
				t.Errorf("SlotMemory = %+v, %v; want known %v, %.1f B per slot", m, ok, tc.known, tc.perSlot)
			}
			if got := m.Line(); got != tc.line {
				t.Errorf("line\n%q\nwant\n%q", got, tc.line)
			}
			var b bytes.Buffer
			if err := WriteText(&b, Analyze(&Run{Name: "m", Variants: []Variant{{Name: "v", Reps: []Rep{rep}}}})); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.line) {
				t.Errorf("text report lacks %q:\n%s", tc.line, b.String())
			}
		})
	}
	// A run recorded before workers measured their private memory: peak
	// RSS, which counts the binary in every worker, says nothing per slot.
	rep := NewRep(0, []Group{{Slots: 4, PeakRSS: 12 * mib}})
	if _, ok := rep.SlotMemory(); ok {
		t.Errorf("SlotMemory of a run without private memory readings: ok")
	}
	var b bytes.Buffer
	if err := WriteText(&b, Analyze(&Run{Name: "m", Variants: []Variant{{Name: "v", Reps: []Rep{rep}}}})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "12.0 MiB peak RSS summed over the workers") || strings.Contains(b.String(), "per connection slot") {
		t.Errorf("old run's memory line:\n%s", b.String())
	}
}
