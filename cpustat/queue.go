package cpustat

import (
	"fmt"
	"strconv"
	"strings"
)

// ListenQueue sums the sockets listening on one TCP port at one instant
// (unlike the namespace's counters, another program's do not move it).
type ListenQueue struct {
	Sockets int
	// Queue is the connections waiting (ss's Recv-Q), Backlog the limit
	// (the backlog capped at net.core.somaxconn, ss's Send-Q).
	Queue, Backlog uint64
	// Drops is sk_drops (ss's skmem d): the listener's share of ListenDrops,
	// its overflows included. Not known before Linux 4.6 or without skmem.
	Drops      uint64
	DropsKnown bool
}

// Full says whether the accept queue held as many as the backlog allows.
func (q ListenQueue) Full() bool { return q.Sockets > 0 && q.Queue >= q.Backlog }

// RemoteListenQueueCommand is the `ss` command whose output ParseListenQueue
// reads: the TCP sockets listening on port with their memory (drops).
func RemoteListenQueueCommand(port int) string {
	return "ss -Hltnm 'sport = :" + strconv.Itoa(port) + "' 2>&1"
}

// ParseListenQueue reads the output of RemoteListenQueueCommand: a
// "LISTEN …" line per listener, its skmem on it or the next line. Output
// that is neither empty nor has such a line is an error.
func ParseListenQueue(out string) (ListenQueue, error) {
	var q ListenQueue
	drops := 0
	for _, line := range strings.Split(out, "\n") {
		fs := strings.Fields(line)
		if len(fs) >= 3 && fs[0] == "LISTEN" { // Recv-Q and Send-Q follow LISTEN
			rq, err1 := strconv.ParseUint(fs[1], 10, 64)
			wq, err2 := strconv.ParseUint(fs[2], 10, 64)
			if err1 != nil || err2 != nil {
				return q, fmt.Errorf("ss: queue columns %q %q are not counts", fs[1], fs[2])
			}
			q.Sockets, q.Queue, q.Backlog = q.Sockets+1, q.Queue+rq, q.Backlog+wq
		}
		for _, f := range fs {
			mem, ok := strings.CutPrefix(f, "skmem:(")
			for _, kv := range strings.Split(strings.TrimSuffix(mem, ")"), ",") {
				v, isDrops := strings.CutPrefix(kv, "d")
				if n, err := strconv.ParseUint(v, 10, 64); ok && isDrops && err == nil && q.Sockets > 0 {
					q.Drops += n
					drops++
				}
			}
		}
	}
	q.DropsKnown = q.Sockets > 0 && drops == q.Sockets
	if q.Sockets == 0 && strings.TrimSpace(out) != "" {
		return q, fmt.Errorf("ss: no listening socket in its output%s", quoteFirstLine(out))
	}
	return q, nil
}

// ListenQueueDelta is a listener over an interval: Drops their growth (not
// known if a reading lacks it or the sockets changed), the rest the later reading.
type ListenQueueDelta = ListenQueue

// Delta is q's growth to the later reading b.
func (q ListenQueue) Delta(b ListenQueue) ListenQueueDelta {
	d := b
	d.Drops, d.DropsKnown = 0, false
	if q.DropsKnown && b.DropsKnown && q.Sockets == b.Sockets && b.Drops >= q.Drops {
		d.Drops, d.DropsKnown = b.Drops-q.Drops, true
	}
	return d
}
