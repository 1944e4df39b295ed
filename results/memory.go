package results

// SlotMemoryBase is how much a loaded worker's private memory grows whatever its slots: the heap's
// first 4 MiB and 1.5 MiB of state (measured: 5.5 MiB with one slot, 39 MiB with 1,024).
const SlotMemoryBase = 6 << 20

// SlotMemory is what a repetition's connection slots cost the client in bytes. PerSlot is the
// growth less SlotMemoryBase per worker, over Slots: Known when the slots make most of the growth.
type SlotMemory struct {
	Workers, Slots int
	Ready, Peak    uint64
	PerSlot        float64
	Known          bool // the growth is at least twice the base
}

// SlotMemory is the memory per connection slot of r's groups; false when none measured it.
func (r *Rep) SlotMemory() (SlotMemory, bool) {
	var m SlotMemory
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.MemoryReady == 0 || g.MemoryPeak == 0 {
			continue
		}
		m.Workers++
		m.Slots += g.Slots
		m.Ready += g.MemoryReady
		m.Peak += max(g.MemoryPeak, g.MemoryReady)
	}
	if m.Workers == 0 {
		return m, false
	}
	growth := float64(m.Peak - m.Ready)
	base := float64(SlotMemoryBase) * float64(m.Workers)
	if m.Slots > 0 && growth >= 2*base {
		m.PerSlot, m.Known = (growth-base)/float64(m.Slots), true
	}
	return m, true
}
