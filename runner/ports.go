package runner

import (
	"net"

	"github.com/kaeload/kaeload/ports"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// checkPorts returns the warnings about the client's ephemeral ports that
// the plan's connections call for (ports.Warnings): more connections at
// once than the port range holds, or, with connection: close, a rate of
// new connections that TIME_WAIT would exhaust. Nothing when the limits
// cannot be read.
func checkPorts(p *plans.Plan) []string {
	l, err := ports.Read()
	if err != nil {
		return nil
	}
	total := 0
	for _, g := range p.Load.Groups {
		total += g.Connections
	}
	loopback := false
	if host, _, err := net.SplitHostPort(p.Target.Addr); err == nil {
		if ip := net.ParseIP(host); ip != nil {
			loopback = ip.IsLoopback()
		}
	}
	return ports.Warnings(l, ports.Load{
		Connections:  total,
		Destinations: 1,
		Loopback:     loopback,
		Close:        p.Load.Connection != plans.KeepAlive,
	})
}

// timeWait counts the client's sockets in TIME_WAIT (this network
// namespace, /proc/net/sockstat).
func timeWait() (int, error) { return ports.TimeWait() }
