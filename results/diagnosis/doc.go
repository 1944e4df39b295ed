// Package diagnosis reads a repetition's timeline (results.Timeline) and
// says what went wrong inside its window: the kernel's TCP counters of
// every host and the rate interval by interval, judged by rules that
// each name the cause, the figure, the consequence and the fix. It is
// analysis, pure: it imports only the run record (results), the
// statistics (results/stats) and the number formats (results/format),
// computes every conclusion once, and the report model
// (analysis.Report) carries the result to every renderer.
//
// # What it computes per repetition (Repetition)
//
//   - the window's counter growth per host (HostCounts): each counter
//     of results.TCPHost summed over the intervals with Start >= 0, a
//     host that the clients and the server share counted once (its
//     counters are both sides'), a counter the host has no value for
//     "not available" (Unavailable), never a zero;
//   - the rate range (RateRange): min / median / max of the window's
//     intervals' rates (results.Interval.Rate, successes per second);
//   - the stalls (Stall) and the diagnoses (Diagnosis).
//
// A repetition without a timeline (a run stored before timelines) has
// NoTimeline set and nothing else: no diagnosis and no error.
//
// # The run's own
//
// The kernel's counters belong to a network namespace, not to a run:
// another program's listener overflowing its own queue moves
// ListenOverflows as the target's would. So a counter rule's finding is
// a diagnosis only where the run's own connections agree; otherwise it
// is a HostOnly change, "on this host, not attributable to the run",
// which every output names and no threshold counts (diagnoses,
// listen_overflows). The evidence:
//
//   - accept-queue overflow and SYN queue full: a boundary found the
//     target's listener (results.ListenQueue, read at the timeline's
//     boundaries) with its accept queue full, or the listener dropped
//     packets and the run's connections show what a drop forces:
//     connects of 1 s or more (a SYN dropped and retransmitted: its first
//     retransmit waits 1 s) or connections whose TCP_INFO counted
//     retransmits (results.Sockets: a final ACK or first data dropped).
//     A listener's drop counter also counts duplicates the kernel
//     discarded, which cost nothing, so drops alone decide only where
//     nothing of the run's connections was recorded; a listener read
//     with no drop decides that there was none, and so does one whose
//     queue no count of waiting connections could have filled: the
//     run's connections in flight and failed, the others its host
//     opened over the window and the longest queue a boundary found,
//     all together under its backlog (a loaded machine's own
//     retransmits, tail-loss probes, then say nothing of the queue).
//     Where it was not read (a
//     server out of reach, a run stored before), the connects and
//     retransmits decide;
//   - TIME_WAIT overflow and reset storm, whose counters have no owner:
//     the run's connects are at least OwnShare of the host's connections.
//
// Traffic cross-checks each host's opens (ActiveOpens where clients
// run, else PassiveOpens) with the run's connects, and says when other
// traffic shared the namespace: more opens than the connections in flight
// at the window's edges explain.
//
// # Rules
//
// The counters are those of the window (the warm-up's do not count: it
// is there to absorb the start).
//
//   - Accept-queue overflow (RuleAcceptQueue): a server host's
//     ListenOverflows or ListenDrops grew. The figure adds the clients'
//     SYN retransmits (TCPSynRetrans) and how many connects took 1 s or
//     more (the repetition's connect histogram: a dropped SYN is retried
//     after 1 s, then 2 s more). Where the server's counters are not
//     available, SYN retransmits together with connects of 1 s or more
//     make the same diagnosis, marked probable.
//   - SYN queue full (RuleSYNCookies): a server host's SyncookiesSent,
//     TCPReqQFullDoCookies or TCPReqQFullDrop grew.
//   - TIME_WAIT bucket overflow (RuleTimeWait): any host's
//     TCPTimeWaitOverflow grew.
//   - Reset storm (RuleResets): a host sent resets (OutRsts) for at
//     least ResetShare of its connections (the larger of ActiveOpens and
//     PassiveOpens: a client's, a server's, or, where both share the
//     namespace, each connection once), and at least MinResets of them.
//     Resets are not rare in a healthy short-connection run: an end that
//     closes with bytes unread (a TLS alert or close_notify arriving
//     after the response was read) resets instead of closing, and so do
//     the connections cut at the window's end. Measured over 3 s windows
//     on this project's machine: 1.4–2.4 % of the connections against
//     loopback nginx, 3.5–4.9 % against the built-in target, and up to
//     13 % of the requests in other runs. Half the connections is far
//     above that, and is what one end resetting most of its
//     connections looks like: a storm. Relative to the connections,
//     because the count alone grows with the rate; with a floor, because
//     a short window's few resets make a large share out of noise.
//     Where no request failed in the window, the resets at close
//     (TCPAbortOnClose and TCPAbortOnData: a close with bytes unread, a
//     segment after the close, a zero-linger close) do not count toward
//     a storm: they are the close race of Connection: close. kaeload
//     closes once the response is read, without a close_notify, and the
//     server's close_notify that arrives just before or just after that
//     close is answered by a reset. A saturated server loses the race
//     more often: on a 2-core CI machine, nginx at 100 % of its CPU with
//     512 connections reset 58 % of them this way (TCPAbortOnData +827,
//     TCPAbortOnClose +600 of OutRsts +1,502), with every request
//     answered. Those resets cost the count nothing and say nothing of
//     the server; a storm that fails requests counts them all.
//   - Stalls (RuleStalls): a window interval whose rate is below half
//     the window's median rate. Only intervals of at least half the
//     timeline's interval are judged (a last interval cut to a few
//     milliseconds has no rate worth the name), at least MinIntervals
//     of them, and only where the median interval holds at least
//     MinStallRequests successes (below that, half the median is within
//     the counting noise). Consecutive stalled intervals are one Stall.
//   - Not steady (RuleNotSteady): the rate of the window's first third
//     differs from its last third's by more than the noise. The thirds
//     are the first and the last third of the judged intervals, stalls
//     left out (they are named already and would read as a trend). The
//     noise is estimated twice. Statistically, from the intervals' own
//     spread: σ of ln(rate) from successive differences,
//     σ² = Σ(ln r[i+1] − ln r[i])² / (2(n−1)), which a slow trend does
//     not inflate as the plain standard deviation would; the difference
//     of the thirds' log means then has a standard error σ·√(2/k) for k
//     intervals a third, and must exceed Student's t at 99.87 % (3σ
//     one-sided-equivalent, n−1 degrees of freedom) times it. Practically,
//     it must also exceed the variant's repetition spread (stats.NoisePct
//     of its repetitions' rates, when there are two or more) and the
//     run's equivalence margin (2 % by default): a drift smaller than
//     what the run calls equivalent, or than the windows differ among
//     themselves anyway, changes no conclusion. Rising: the warm-up is
//     probably too short. Falling: the server slows as the window goes on.
package diagnosis
