// Package engine is the request hot loop of one worker group: a fixed
// number of connection slots, each one goroutine sending requests back to
// back to one target, for one measured window.
//
//	e, err := engine.New(plan.Target, plan.Load, group.Connections)
//	g := e.Run(ctx, results.Window{Start: start, End: end}) // Snapshot() meanwhile
//
// # One request
//
// In close mode every request is: TCP connect, full TLS handshake (none for
// http:// targets), write of the pre-rendered request, read of the complete
// response (headers and body, parsed with fasthttp), close. In keep-alive
// mode a slot keeps its connection and opens a new one only when the server
// closes it, says "Connection: close", or a request on it fails. Each
// request has one deadline, its start plus Load.Timeout, which bounds the
// connect, handshake, write and read together. Sessions are resumed only
// with TLS.Resumption, from a one-entry cache private to the slot; without
// it no session is ever stored, so every handshake is full. The socket is
// closed directly, without a TLS close_notify: the response is complete.
//
// # Counting rules
//
// Run starts the slots at once; the window [Start, End) says what counts.
//
//   - A request counts when its response completes inside the window,
//     whenever it started: traffic that ends before Start is warm-up.
//   - A failed request counts as an error of its class when it fails inside
//     the window: connect, tls, timeout (any step past the deadline,
//     whatever error reported it), write, read, and ports: a connect that
//     failed with EADDRNOTAVAIL, the client out of ephemeral ports, never
//     a plain connect error.
//   - A response with status >= 400 is a complete response (Requests,
//     Status, Bytes, histograms: the server logged it) and a status error,
//     never a success: the rate counts Succeeded, responses below 400.
//   - The connection, handshake, resumption and negotiated parameters of a
//     request, and its connect and handshake times, count together with the
//     request that opened the connection: exactly when that request (or its
//     failure) counts. So in close mode with no errors, Connections ==
//     Handshakes == Requests.
//   - TTFB and Total run from the request's start (before the connect, for a
//     request that opens a connection) to the first and last response byte.
//   - Before the client closes a connection it reads the socket's TCP_INFO
//     (Linux, one getsockopt into the slot's own buffer: no allocation, no
//     lock, 2-3 µs against a short connection's 1.5 ms: BenchmarkSockInfo), and counts it
//     with the request that closed it (Counts.Sockets): whether it
//     retransmitted and whether the server reset it. That is the run's own
//     view of what the namespace's kernel counters say of every program.
//   - At End no new request starts. Requests in flight drain: they may
//     complete for up to min(timeout, 1 s) after End, uncounted, as
//     Outside.Late; those still unfinished are cut off as Outside.Abandoned,
//     and Outside.Unanswered says which stage each was in when the window
//     ended (connect, handshake or response): a server that accepts
//     connections and never answers is seen there.
//     Warm-up responses are Outside.Warmup. So every response the client
//     read is in exactly one of Requests, Outside.Warmup and Outside.Late,
//     which is what makes the totals checkable against a server's log.
//     Cancelling Run's context cuts everything off at the cancel time,
//     which becomes the window's end.
//
// # Timeline
//
// With Load.Interval set, Run also divides the warm-up and the window into
// intervals anchored at the window's start (negative in the warm-up) and
// counts every request in the interval in which it completes, by the
// comparison that counts it in the window, so the window's intervals add
// up exactly to its counts; errors by class, requests started and the
// handshake and total times likewise. TakeIntervals hands out each
// interval once it has ended, while Run runs, and the rest after it. A
// slot counts into an accumulator of its own, handed to its lane once per
// interval, under a lock it holds only from reading the clock to counting
// (uncontended but for the collector's visit): no allocation per request,
// about 100 ns (BenchmarkTimelineEvents, BenchmarkTimeline).
//
// # Back-off
//
// In the closed loop, a slot whose connects fail at once three times in a
// row (refused, reset, unreachable, no local port; not timeouts, which
// waited already) waits 1 ms before its next try, twice as long after each
// further failure, up to 100 ms, until a connect succeeds. The failures
// are counted as always; the waits that begin inside the window are
// counted in Counts.Backoffs. A dead server then costs each slot about ten
// tries a second instead of a busy loop on its CPU, and a slot is back to
// work within 100 ms of the server's return. A request that succeeds
// costs two comparisons more.
//
// # Open loop
//
// By default the loop is closed: each slot starts its next request when
// the last one ends. SetRate makes it open: requests start on a schedule
// (package pacer) at the group's rate, start k at k/rate after Run
// began, whichever slot is free taking the next start and waiting until
// it is due. A start that comes due while every slot is busy is missed:
// counted in Counts.Missed (and Counts.Scheduled, which counts every
// start due inside the window), never run late, so no queue builds up
// in the client behind a slow server. Latency.Intended measures each
// request from its intended start, and holds every missed start at the
// request timeout: a server that cannot keep up shows in its
// percentiles, while Total, from the actual start, stays what the
// server took for the requests it was sent. Waiting for a start costs
// no allocation (the slot's own timer).
//
// Counters are local to a slot and merged when Run ends. Latency
// histograms are shared by the slots of a lane (a few lanes per thread):
// a slot collects 32 timings of a kind before it takes its lane's lock to
// record them, so that 10,000 slots do not each carry 86 KB of
// histograms; no timing is dropped, and the merge stays exact. The hot
// loop sends on no channel. Each slot publishes
// its counted requests, errors and bytes with atomic stores for Snapshot.
package engine
