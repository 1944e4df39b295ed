// Package pacer is the open-loop schedule: intended start times at a fixed
// rate, and a lock-free dispatcher that hands them to whichever connection
// slot is free.
//
// Start k is due at t0 + k/rate, computed from k every time and never by
// adding a period to the previous start, so the schedule does not drift:
// start one million is as exact as start one. A start whose time arrives
// while every slot is busy is missed: the next slot to become free counts
// it, and every other start that came due while it was busy, as missed and
// takes the first start due since it became free. A missed start is never run late (no queue builds up
// behind a slow server), so latency measured from the intended start is
// the response's latency plus only the dispatcher's own lag, and a server
// that cannot keep up shows as missed starts, not as a quietly lower rate.
//
//	s, _ := pacer.NewSchedule(20000)     // per second
//	p := pacer.New(s, end)               // end: no start at or after it
//	st, ok := p.Take(free)               // free: since when the taker was free, after t0
//	// st.At is the intended start; st.Missed starts were skipped
//
// Times are durations since the schedule's origin t0, so the package needs
// no clock; Wait takes one (a Clock) so tests can use a fake one.
package pacer
