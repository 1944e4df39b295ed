package cpustat

import (
	"fmt"
	"strconv"
	"strings"
)

// ListenQueue is what the kernel says of the sockets listening on one TCP
// port at one instant, summed over them. Unlike the namespace's counters
// (TCPSnapshot), another program's listener does not move it.
type ListenQueue struct {
	// Sockets is how many sockets listen on the port; 0 when none does.
	Sockets int
	// Queue is the connections waiting in their accept queues
	// (idiag_rqueue, ss's Recv-Q), Backlog the queues' limits (the listen
	// backlog capped at net.core.somaxconn: idiag_wqueue, ss's Send-Q).
	Queue, Backlog uint64
	// Drops is the sockets' drop counter (sk_drops, ss's skmem d): the
	// kernel adds one for each SYN or completed handshake such a
	// listener drops, whenever it adds one to the namespace's
	// ListenDrops (so it counts the listener's ListenOverflows too).
	Drops uint64
	// DropsKnown is false when the kernel did not report Drops (before
	// Linux 4.6, or ss without skmem).
	DropsKnown bool
}

// Full says whether an accept queue was full at the instant: as many
// waiting as the backlog allows (the kernel overflows beyond it).
func (q ListenQueue) Full() bool { return q.Sockets > 0 && q.Queue >= q.Backlog }

// RemoteListenQueueCommand is the shell command whose output
// ParseListenQueue reads: `ss` listing the TCP sockets listening on port
// with their memory (drops), without a header.
func RemoteListenQueueCommand(port int) string {
	return "ss -Hltnm 'sport = :" + strconv.Itoa(port) + "' 2>&1"
}

// ParseListenQueue reads the output of RemoteListenQueueCommand (`ss
// -Hltnm`): each listener's "LISTEN …" line with its skmem part on it or
// the next line. Output with no socket line that is not an empty answer
// is an error.
func ParseListenQueue(out string) (ListenQueue, error) {
	var q ListenQueue
	dropsSeen := 0
	for _, f := range strings.Fields(out) {
		switch {
		case f == "LISTEN":
			q.Sockets++
		case strings.HasPrefix(f, "skmem:(") && q.Sockets > 0:
			for _, kv := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(f, "skmem:("), ")"), ",") {
				if v, ok := strings.CutPrefix(kv, "d"); ok {
					if n, err := strconv.ParseUint(v, 10, 64); err == nil {
						q.Drops += n
						dropsSeen++
					}
				}
			}
		}
	}
	q.DropsKnown = q.Sockets > 0 && dropsSeen == q.Sockets
	if q.Sockets == 0 {
		if strings.TrimSpace(out) != "" {
			return q, fmt.Errorf("ss: no listening socket in its output%s", quoteFirstLine(out))
		}
		return q, nil
	}
	// The queue columns: the two numbers after each LISTEN.
	lines := strings.Split(out, "\n")
	for _, line := range lines {
		fs := strings.Fields(line)
		if len(fs) < 3 || fs[0] != "LISTEN" {
			continue
		}
		rq, err1 := strconv.ParseUint(fs[1], 10, 64)
		wq, err2 := strconv.ParseUint(fs[2], 10, 64)
		if err1 != nil || err2 != nil {
			return q, fmt.Errorf("ss: queue columns %q %q are not counts", fs[1], fs[2])
		}
		q.Queue += rq
		q.Backlog += wq
	}
	return q, nil
}

// ListenQueueDelta is a listener over an interval: how much its drops
// grew, and its accept queue at the interval's end.
type ListenQueueDelta struct {
	// Drops is the growth of ListenQueue.Drops; DropsKnown false when
	// either reading lacks it, or the sockets changed between them (a
	// restarted listener's counter starts at 0 again).
	Drops      uint64
	DropsKnown bool
	// Queue, Backlog and Sockets are the later reading's.
	Queue, Backlog uint64
	Sockets        int
}

// Delta is q's growth to the later reading b.
func (q ListenQueue) Delta(b ListenQueue) ListenQueueDelta {
	d := ListenQueueDelta{Queue: b.Queue, Backlog: b.Backlog, Sockets: b.Sockets}
	if q.DropsKnown && b.DropsKnown && q.Sockets == b.Sockets && b.Drops >= q.Drops {
		d.Drops, d.DropsKnown = b.Drops-q.Drops, true
	}
	return d
}
