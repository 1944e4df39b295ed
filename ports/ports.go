package ports

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// TimeWaitLen is how long the side that closed first holds the port in
// TIME_WAIT: TCP_TIMEWAIT_LEN, which no sysctl changes (not tcp_fin_timeout).
const TimeWaitLen = 60 * time.Second

// ReuseDelay is how old a TIME_WAIT connection must be before tcp_tw_reuse
// gives its port to a new one (tcp_tw_reuse_delay since Linux 6.13).
const ReuseDelay = time.Second

// Values of Limits.TWReuse, as net.ipv4.tcp_tw_reuse spells them.
const (
	TWReuseOff      = 0 // TIME_WAIT ports are never reused for new connections
	TWReuseOn       = 1 // reused for any destination
	TWReuseLoopback = 2 // reused for loopback destinations only: the kernel default
)

// ErrUnsupported is what Read and TimeWait return off Linux.
var ErrUnsupported = errors.New("client port limits need Linux /proc (this is " + runtime.GOOS + ")")

// Limits are the net.ipv4 settings that bound a client's connections to
// one destination; the zero Limits is unknown.
type Limits struct {
	Low, High int // ip_local_port_range, inclusive
	TWReuse   int // tcp_tw_reuse
	// FinTimeout is tcp_fin_timeout, often taken for the TIME_WAIT length.
	FinTimeout time.Duration
}

// Known reports whether l was read from a kernel (it has a port range).
func (l Limits) Known() bool { return l.High > 0 }

// Ports is the number of ports in the range, reserved ones included.
func (l Limits) Ports() int {
	if !l.Known() || l.High < l.Low {
		return 0
	}
	return l.High - l.Low + 1
}

// Reuses reports whether the kernel reuses TIME_WAIT ports for a destination.
func (l Limits) Reuses(loopback bool) bool {
	return l.TWReuse == TWReuseOn || (l.TWReuse == TWReuseLoopback && loopback)
}

// MaxRate is the most new connections/s to one destination beside concurrent ones.
func (l Limits) MaxRate(loopback bool, concurrent int) float64 {
	return max(float64(l.Ports()-max(concurrent, 0)), 0) / holdSeconds(l.Reuses(loopback))
}

// ParseLimits parses the text of ip_local_port_range, tcp_tw_reuse and
// tcp_fin_timeout; every malformed one is an error naming its sysctl.
func ParseLimits(portRange, twReuse, finTimeout string) (Limits, error) {
	var l Limits
	var errs []error
	fail := func(name, text, want string) {
		errs = append(errs, fmt.Errorf("net.ipv4.%s: %q: %s", name, strings.TrimSpace(text), want))
	}
	if r, err := ints(portRange, 2); err != nil {
		fail("ip_local_port_range", portRange, "want two port numbers, low and high")
	} else if r[0] < 1 || r[1] > 65535 || r[0] > r[1] {
		fail("ip_local_port_range", portRange, "want 1 <= low <= high <= 65535")
	} else {
		l.Low, l.High = r[0], r[1]
	}
	if n, err := ints(twReuse, 1); err != nil || n[0] < TWReuseOff || n[0] > TWReuseLoopback {
		fail("tcp_tw_reuse", twReuse, "want 0, 1 or 2")
	} else {
		l.TWReuse = n[0]
	}
	if n, err := ints(finTimeout, 1); err != nil || n[0] < 0 {
		fail("tcp_fin_timeout", finTimeout, "want a number of seconds")
	} else {
		l.FinTimeout = time.Duration(n[0]) * time.Second
	}
	if len(errs) > 0 {
		return Limits{}, errors.Join(errs...)
	}
	return l, nil
}

// ints reads text's n whitespace-separated integers.
func ints(text string, n int) ([]int, error) {
	f := strings.Fields(text)
	if len(f) != n {
		return nil, fmt.Errorf("%d fields, want %d", len(f), n)
	}
	out := make([]int, n)
	for i, s := range f {
		var err error
		if out[i], err = strconv.Atoi(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Read returns this network namespace's Limits; on error, the zero Limits.
func Read() (Limits, error) {
	if runtime.GOOS != "linux" {
		return Limits{}, ErrUnsupported
	}
	var text [3]string
	for i, name := range []string{"ip_local_port_range", "tcp_tw_reuse", "tcp_fin_timeout"} {
		b, err := os.ReadFile("/proc/sys/net/ipv4/" + name)
		if err != nil {
			return Limits{}, fmt.Errorf("read client port limits: %w", err)
		}
		text[i] = string(b)
	}
	l, err := ParseLimits(text[0], text[1], text[2])
	if err != nil {
		return Limits{}, fmt.Errorf("read client port limits: %w", err)
	}
	return l, nil
}

// TimeWait returns the number of TCP connections in TIME_WAIT in this
// process's network namespace (a container's own, not the host's).
func TimeWait() (int, error) {
	if runtime.GOOS != "linux" {
		return 0, ErrUnsupported
	}
	b, err := os.ReadFile("/proc/net/sockstat")
	if err != nil {
		return 0, fmt.Errorf("count TIME_WAIT: %w", err)
	}
	return ParseTimeWait(string(b))
}

// ParseTimeWait returns the tw count of sockstat's "TCP:" line (IPv6 included).
func ParseTimeWait(sockstat string) (int, error) {
	tw, found := -1, false
	for _, line := range strings.Split(sockstat, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "TCP:" {
			continue
		}
		if found {
			return 0, errors.New("parse sockstat: two TCP lines")
		}
		found = true
		if len(f)%2 != 1 {
			return 0, fmt.Errorf("parse sockstat: TCP line %q is not name-count pairs", strings.TrimSpace(line))
		}
		for i := 1; i < len(f); i += 2 {
			n, err := strconv.Atoi(f[i+1])
			if err != nil || n < 0 {
				return 0, fmt.Errorf("parse sockstat: TCP %s %q is not a count", f[i], f[i+1])
			}
			if f[i] == "tw" {
				tw = n
			}
		}
	}
	switch {
	case !found:
		return 0, errors.New("parse sockstat: no TCP line (sockstat6 has none: IPv6 TIME_WAIT is counted in sockstat)")
	case tw < 0:
		return 0, errors.New("parse sockstat: the TCP line has no tw count")
	}
	return tw, nil
}

// Exhausted reports whether a dial's err says no ephemeral port was free.
func Exhausted(err error) bool { return errors.Is(err, syscall.EADDRNOTAVAIL) }

// Load is what a planned run asks of the client's ports.
type Load struct {
	Connections  int     // open at once, all groups together
	Destinations int     // server addresses the connections spread over; 0 counts as 1
	Loopback     bool    // every destination is loopback (tcp_tw_reuse=2 reuses)
	Close        bool    // connection: close
	Rate         float64 // new connections per second; 0: a closed loop (see MeasuredWarning)
}

// perDest is the destinations (at least 1) and the open connections per one.
func (ld Load) perDest() (dest, per int) {
	dest = max(ld.Destinations, 1)
	return dest, (max(ld.Connections, 0) + dest - 1) / dest
}

// Shortage is a shortage of client ports before or after a window: Kind
// (a results/notes code, which words it) and its figures.
type Shortage struct {
	Kind string
	Args map[string]any
}

// The kinds of Shortage. Fix* name the command that removes the cause.
const (
	TooMany  = "ports_too_many"  // more open connections than ports
	RateHigh = "ports_rate_high" // connection: close at a rate TIME_WAIT cannot keep up with
	Measured = "ports_time_wait" // TIME_WAIT or port errors after a window

	FixWiden        = "widen"          // widen the port range
	FixReuse        = "reuse"          // turn tcp_tw_reuse on
	FixReuseOrWiden = "reuse_or_widen" // either: wide_max says what widening allows
	FixElsewhere    = "elsewhere"      // spread the load over more addresses
)

// Warnings are what a user must see before load is sent: more connections
// than ports, or in close mode a Rate above MaxRate.
func Warnings(l Limits, ld Load) []Shortage {
	if !l.Known() {
		return nil
	}
	const widePorts = 65535 - 1024 + 1
	dest, per := ld.perDest()
	ports := l.Ports()
	args := map[string]any{"low": l.Low, "high": l.High, "ports": ports, "per": per, "dest": dest}
	if per > ports {
		args["fix"] = FixWiden
		if per > widePorts {
			args["fix"] = FixElsewhere
		}
		return []Shortage{{TooMany, args}}
	}
	reused := l.Reuses(ld.Loopback)
	maxRate := l.MaxRate(ld.Loopback, per) // per destination
	r := ld.Rate / float64(dest)
	if !ld.Close || ld.Rate <= 0 || r <= maxRate {
		return nil
	}
	wideMax := float64(widePorts-per) / holdSeconds(reused) // per destination with 1024-65535
	wideFits := ports < widePorts && r <= wideMax
	switch {
	case !reused && wideFits:
		args["fix"] = FixReuseOrWiden
	case !reused:
		args["fix"] = FixReuse
	case wideFits:
		args["fix"] = FixWiden
	default:
		args["fix"] = FixElsewhere
	}
	args["rate"], args["per_dest"], args["reused"], args["held"] = ld.Rate, r, reused, r*holdSeconds(reused)
	args["max_rate"], args["wide_max"], args["left"] = maxRate, wideMax, float64(ports-per)/r // seconds until the free ports are taken
	return []Shortage{{RateHigh, args}}
}

// holdSeconds is how long a closed connection holds its port.
func holdSeconds(reused bool) float64 {
	if reused {
		return ReuseDelay.Seconds()
	}
	return TimeWaitLen.Seconds()
}

// TimeWaitShare is the share of the free ports that TIME_WAIT must hold
// after a window for MeasuredWarning to speak: a longer window would run out.
const TimeWaitShare = 0.1

// MeasuredWarning warns, after a window, of TIME_WAIT holding TimeWaitShare
// of the free ports or more, or of connects that found none.
func MeasuredWarning(l Limits, ld Load, timeWait int, portErrors uint64) *Shortage {
	if !l.Known() || (timeWait <= 0 && portErrors == 0) {
		return nil
	}
	dest, per := ld.perDest()
	free := max(l.Ports()-per, 1)
	share := float64(timeWait) / float64(dest) / float64(free)
	if portErrors == 0 && share < TimeWaitShare {
		return nil
	}
	fix := FixReuseOrWiden
	if l.Reuses(ld.Loopback) {
		fix = FixWiden
	}
	return &Shortage{Measured, map[string]any{"time_wait": timeWait, "share": share, "free": free, "low": l.Low, "high": l.High,
		"per": per, "port_errors": portErrors, "fix": fix}}
}
