//go:build linux

package ports

import (
	"fmt"
	"os"
)

// Read returns this network namespace's Limits; on error, the zero Limits.
func Read() (Limits, error) {
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
	b, err := os.ReadFile("/proc/net/sockstat")
	if err != nil {
		return 0, fmt.Errorf("count TIME_WAIT: %w", err)
	}
	return ParseTimeWait(string(b))
}
