package render

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestOtherLoadInEveryOutput: the busy loop at nice 19 does not make the
// baseline client-bound in any output, and every output that shows the
// CLIENT-BOUND verdict (text, Markdown, CSV, the JSON summary, run.json's
// warnings) names the loop under OTHER LOAD instead, while kaeload
// saturating its CPU alone is still CLIENT-BOUND.
func TestOtherLoadInEveryOutput(t *testing.T) {
	r := fixture.OtherLoadRun()
	const loop = "sh (pid 4242, nice 19, CPUs 1) 2.70 CPU-s"
	want := "variant baseline, repetition 1: OTHER LOAD: other processes took 90 % of group 0 (CPUs 1), kaeload 10 % " +
		"(its threads waited 1.20 s in all for a CPU); busiest: " + loop + ", node_exporter (pid 77, CPUs 0-1) 0.20 CPU-s: " +
		"not kaeload's own use, which alone makes a result client-bound"
	bound := "variant kae, repetition 2: CLIENT-BOUND: kaeload used 97 % of group 1 (CPUs 4): this figure measures kaeload, not the server"
	ws := analysis.Analyze(r).Warnings
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
	analysis.Annotate(r)
	if !slices.Contains(r.Warnings.Strings(), want) {
		t.Errorf("Annotate did not store the OTHER LOAD warning: %q", r.Warnings)
	}

	var text, md bytes.Buffer
	if err := WriteText(&text, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, analysis.Analyze(r)); err != nil {
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
	if err := WriteSummaryJSON(&js, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	var sum summaryBack
	if err := json.Unmarshal(js.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if got := sum.Variants[0]; got["other_load_reps"] != 1.0 || got["client_bound_reps"] != nil {
		t.Errorf("JSON summary baseline: other_load_reps %v, client_bound_reps %v; want 1, none", got["other_load_reps"], got["client_bound_reps"])
	}
	if got := sum.Variants[1]["client_bound_reps"]; got != 1.0 {
		t.Errorf("JSON summary kae: client_bound_reps %v, want 1", got)
	}
	if !slices.Contains(sum.Warnings, want) {
		t.Errorf("JSON summary warnings lack the OTHER LOAD line: %q", sum.Warnings)
	}
	if got, want := analysis.Analyze(r).ClientBoundGroups.Strings(), []string{"variant kae, repetition 2: kaeload used 97 % of group 1 (CPUs 4)"}; !slices.Equal(got, want) {
		t.Errorf("ClientBoundGroups = %q, want %q", got, want)
	}
}

// TestSlotMemory: a slot costs the workers' private memory grown over
// their idle size, less SlotMemoryBase per worker, over the slots; n/a
// when the growth is under twice the base.
func TestSlotMemory(t *testing.T) {
	const mib = 1 << 20
	mem := func(slots int, ready, peak uint64) results.Group {
		return results.Group{Slots: slots, MemoryReady: ready, MemoryPeak: peak, PeakRSS: peak + 20*mib}
	}
	for _, tc := range []struct {
		name    string
		groups  []results.Group
		known   bool
		perSlot float64
		line    string
	}{
		{"1,024 slots", []results.Group{mem(1024, 1.5*mib, 38.5*mib)}, true, 31 * 1024,
			"38.5 MiB private at peak in 1 worker (1.5 MiB idle); 31.0 KiB per connection slot"},
		{"the quick start's few slots", []results.Group{mem(8, 1.5*mib, 7*mib)}, false, 0,
			"7.0 MiB private at peak in 1 worker (1.5 MiB idle); per connection slot n/a: 8 slots grew it by 5.5 MiB, under twice the 6.0 MiB any loaded worker grows by"},
		{"128 groups of one slot", slices.Repeat([]results.Group{mem(1, 1.5*mib, 7*mib)}, 128), false, 0,
			"896.0 MiB private at peak in 128 workers (192.0 MiB idle); per connection slot n/a: 128 slots grew it by 704.0 MiB, under twice the 768.0 MiB any loaded worker grows by"},
		{"two workers, one not measured", []results.Group{mem(512, 2*mib, 26*mib), {Slots: 512, PeakRSS: 40 * mib}}, true, 18 * mib / 512,
			"26.0 MiB private at peak in 1 worker (2.0 MiB idle); 36.0 KiB per connection slot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := results.NewRep(0, tc.groups)
			m, ok := rep.SlotMemory()
			if !ok || m.Known != tc.known || math.Abs(m.PerSlot-tc.perSlot) > 1e-6 {
				t.Errorf("SlotMemory = %+v, %v; want known %v, %.1f B per slot", m, ok, tc.known, tc.perSlot)
			}
			if got := format.SlotMemoryLine(m); got != tc.line {
				t.Errorf("line\n%q\nwant\n%q", got, tc.line)
			}
			var b bytes.Buffer
			if err := WriteText(&b, analysis.Analyze(&results.Run{Name: "m", Variants: []results.Variant{{Name: "v", Reps: []results.Rep{rep}}}})); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.line) {
				t.Errorf("text report lacks %q:\n%s", tc.line, b.String())
			}
		})
	}
	// A run recorded before workers measured their private memory: peak
	// RSS, which counts the binary in every worker, says nothing per slot.
	rep := results.NewRep(0, []results.Group{{Slots: 4, PeakRSS: 12 * mib}})
	if _, ok := rep.SlotMemory(); ok {
		t.Errorf("SlotMemory of a run without private memory readings: ok")
	}
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(&results.Run{Name: "m", Variants: []results.Variant{{Name: "v", Reps: []results.Rep{rep}}}})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "12.0 MiB peak RSS summed over the workers") || strings.Contains(b.String(), "per connection slot") {
		t.Errorf("old run's memory line:\n%s", b.String())
	}
}
