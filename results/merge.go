package results

// TotalIndex is the Group.Index of a group produced by Merge.
const TotalIndex = -1

// Merge combines the groups of one repetition into their total, exactly:
//
//   - Counts are added (Counts.Add); the first error message of a class is
//     the one of the lowest-indexed group that saw that class.
//   - Histograms are merged into fresh ones, bucket by bucket, so every
//     percentile of the total is the percentile of all requests, never an
//     average of per-group percentiles.
//   - Threads, Slots and the memory figures (PeakRSS, MemoryReady,
//     MemoryPeak) are summed; CPUs is empty and Index is TotalIndex.
//   - Window is [earliest Start, latest End] over the groups with a
//     non-zero window. The controller gives every group the same window, so
//     the groups' windows differ only by clock noise between processes (a
//     few ms at most) and the hull is that window. Taking the hull, not the
//     intersection, keeps every counted request inside the total window, so
//     the total rate (Rate: total requests / total window length) is never
//     overstated; with identical windows it is exact.
//
// Merge does not modify the groups and shares no memory with them.
func Merge(groups []Group) Group {
	t := Group{Index: TotalIndex, Latency: NewLatency()}
	for i := range groups {
		g := &groups[i]
		t.Counts.Add(&g.Counts)
		t.Latency.mergeFrom(&g.Latency)
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

// mergeFrom merges o's histograms into l's, skipping nil ones on either side.
func (l *Latency) mergeFrom(o *Latency) {
	pairs := [...][2]*Histogram{{l.Connect, o.Connect}, {l.Handshake, o.Handshake}, {l.TTFB, o.TTFB}, {l.Total, o.Total}}
	for _, p := range pairs {
		if p[0] != nil && p[0].Histogram != nil && p[1] != nil && p[1].Histogram != nil {
			p[0].Merge(p[1].Histogram) // same bounds everywhere: nothing is dropped
		}
	}
	l.mergeIntended(o)
}

// Rate is the group's throughput in successful requests per second:
// Succeeded (responses with a status below 400) divided by the length of
// its own Window. It is 0 for an empty or inverted window. For a total
// made by Merge this is total successes / [earliest Start, latest End],
// unless GroupsRate is set (Rep.RecordSpread).
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
