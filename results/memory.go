package results

// SlotMemoryBase is how much a worker's private memory grows once it
// carries load, whatever its number of connection slots: the Go
// runtime lets the heap reach 4 MiB before its first collection, and
// the runtime, TLS and histogram state of a loaded worker add about
// 1.5 MiB more (measured: 5.5 MiB with one slot, against 39 MiB with
// 1,024). SlotMemory subtracts it from each worker's growth.
const SlotMemoryBase = 6 << 20

// SlotMemory is what a repetition's connection slots cost the client in
// memory, from the groups whose workers measured their private memory
// (Group.MemoryReady, Group.MemoryPeak).
type SlotMemory struct {
	// Workers is the number of such groups and Slots their slots.
	Workers, Slots int
	// Ready and Peak are their private memory summed, in bytes: when
	// ready (idle, before any connection) and at its highest under load.
	Ready, Peak uint64
	// PerSlot is what one slot costs in bytes: the growth from Ready to
	// Peak less SlotMemoryBase per worker, over Slots. Known says whether
	// the slots can be told from the base: only when the growth is at
	// least twice SlotMemoryBase per worker, so that the slots make
	// most of it. A few slots per worker (the quick start; 128 groups of
	// one slot) cannot be told from it.
	PerSlot float64
	Known   bool
}

// SlotMemory returns the memory per connection slot of r's groups; false
// when no group measured its memory (a run recorded before they did, or
// off Linux).
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
