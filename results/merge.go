package results

// TotalIndex is the Group.Index of a group produced by Merge.
const TotalIndex = -1

// Merge is the groups' exact total, sharing no memory; its Window is the
// hull of theirs, so Rate is never overstated.
func Merge(groups []Group) Group {
	t := Group{Index: TotalIndex, Latency: NewLatency()}
	for i := range groups {
		g := &groups[i]
		t.Counts.Add(&g.Counts)
		t.Latency.Merge(&g.Latency)
		t.Threads += g.Threads
		t.Slots += g.Slots
		t.PeakRSS += g.PeakRSS
		t.MemoryReady += g.MemoryReady
		t.MemoryPeak += g.MemoryPeak
		w := g.Window
		if w.Start.IsZero() && w.End.IsZero() {
			continue
		}
		if t.Window.Start.IsZero() || w.Start.Before(t.Window.Start) {
			t.Window.Start = w.Start
		}
		if t.Window.End.IsZero() || w.End.After(t.Window.End) {
			t.Window.End = w.End
		}
	}
	return t
}

// Rate is the group's successful requests per second over its Window, or GroupsRate when set.
func (g *Group) Rate() float64 {
	if g.GroupsRate > 0 {
		return g.GroupsRate
	}
	l := g.Window.Length()
	if l <= 0 {
		return 0
	}
	return float64(g.Succeeded()) / l.Seconds()
}
