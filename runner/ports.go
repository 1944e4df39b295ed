package runner

import (
	"net"
	"net/netip"
	"slices"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/ports"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// portLoad is what the plan asks of the client's ports (ports.Load).
func portLoad(p *plans.Plan) ports.Load {
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
	return ports.Load{Connections: total, Destinations: 1, Loopback: loopback, Close: p.Load.Connection != plans.KeepAlive}
}

// checkTimeWait counts the client's TIME_WAIT sockets to the target after
// rep's window and warns once a run when they or port errors call for it.
func (c *controller) checkTimeWait(rep *results.Rep) {
	dst, err := netip.ParseAddrPort(c.plan.Target.Addr)
	if !slices.ContainsFunc(c.plan.Load.Groups, localGroup) || err != nil {
		return
	}
	n, err := cpustat.CountTimeWait(dst)
	if err != nil {
		return
	}
	rep.TimeWaitTarget = &n
	if c.timeWaitWarned {
		return
	}
	l, err := ports.Read()
	if err != nil {
		return
	}
	if s := ports.MeasuredWarning(l, portLoad(c.plan), n, rep.Total.Errors[results.ErrPorts].Count); s != nil {
		c.timeWaitWarned = true
		c.warn(shortage(*s))
	}
}

// checkPorts returns the plan's warnings about the client's ephemeral
// ports; none when the limits cannot be read.
func checkPorts(p *plans.Plan) []results.Warning {
	l, err := ports.Read()
	if err != nil {
		return nil
	}
	var ws []results.Warning
	for _, s := range ports.Warnings(l, portLoad(p)) {
		ws = append(ws, shortage(s))
	}
	return ws
}

// shortage is s as a warning, in notes' words.
func shortage(s ports.Shortage) results.Warning {
	return notes.Note{Code: notes.Code(s.Kind), Args: s.Args}.Warning()
}
