package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// TestSlotMemory runs three groups of 1, 128 and 512 connection slots
// against nginx, each worker reading its private memory when ready (before
// its engine exists) and at its peak under load. What one slot costs is
// the growth between 128 and 512 slots over the 384 slots between them,
// measured in the same run: the 512-slot group's figure (its growth less
// results.SlotMemoryBase, over its slots) must agree with it within a
// factor of 1.5. Peak RSS over slots, the figure reports gave before,
// counts the kaeload binary in every worker and was several times too
// high with few slots. One slot cannot be told from what any loaded worker
// grows by: its figure is n/a.
func TestSlotMemory(t *testing.T) {
	needCPUs(t, 2)
	if raceEnabled {
		t.Skip("the race detector's shadow memory is no slot's cost")
	}
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", CPUs: "0"})
	p := plan(ng.Addr, 500*time.Millisecond, []int{1}, []int{1}, []int{1})
	slots := []int{1, 128, 512}
	for i, n := range slots {
		p.Load.Groups[i].Connections = n
	}
	run, _ := runLogged(t, p)
	rep := &run.Variants[0].Reps[0]
	var growth [3]float64
	var one [3]results.SlotMemory
	for i, g := range rep.Groups {
		if g.MemoryReady == 0 || g.MemoryPeak < g.MemoryReady {
			t.Fatalf("group %d: memory when ready %d B, at peak %d B", i, g.MemoryReady, g.MemoryPeak)
		}
		growth[i] = float64(g.MemoryPeak - g.MemoryReady)
		alone := results.Rep{Groups: []results.Group{g}}
		one[i], _ = alone.SlotMemory()
		t.Logf("group %d, %d slots, %d requests: %s; peak RSS %.1f MiB", i, g.Slots, g.Requests, format.SlotMemoryLine(one[i]), float64(g.PeakRSS)/(1<<20))
	}
	if one[0].Known {
		t.Errorf("1 slot: %s; want n/a, one slot cannot be told from the worker's base", format.SlotMemoryLine(one[0]))
	}
	if !strings.Contains(format.SlotMemoryLine(one[0]), "per connection slot n/a") {
		t.Errorf("1 slot: %q does not say n/a", format.SlotMemoryLine(one[0]))
	}
	marginal := (growth[2] - growth[1]) / float64(slots[2]-slots[1])
	if marginal <= 0 {
		t.Fatalf("512 slots grew the worker by %.1f MiB, 128 by %.1f MiB: no cost per slot to compare with", growth[2]/(1<<20), growth[1]/(1<<20))
	}
	got := one[2]
	t.Logf("between 128 and 512 slots: %.1f KiB per slot; the 512-slot group's figure %.1f KiB; peak RSS / slots %.1f KiB",
		marginal/1024, got.PerSlot/1024, float64(rep.Groups[2].PeakRSS)/512/1024)
	if !got.Known {
		t.Fatalf("512 slots: %s; want a figure", format.SlotMemoryLine(got))
	}
	if r := got.PerSlot / marginal; r < 1/1.5 || r > 1.5 {
		t.Errorf("512 slots: %.1f KiB per slot, %.2f times the %.1f KiB each slot added between 128 and 512", got.PerSlot/1024, r, marginal/1024)
	}
}
