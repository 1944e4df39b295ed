package render

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// writeHosts lists the run's ssh hosts, one HostLine each.
func writeHosts(b *bytes.Buffer, hosts []results.RemoteHost) {
	for _, h := range hosts {
		fmt.Fprintf(b, "host      %s\n", format.HostLine(h))
	}
}

// writeHostGroups sums a repetition's groups per host: groups, CPUs,
// client CPU and clock offset; nothing when every group ran here.
func writeHostGroups(b *bytes.Buffer, groups []results.Group) {
	if !slices.ContainsFunc(groups, func(g results.Group) bool { return g.Host != "" }) {
		return
	}
	type acc struct {
		groups, cpus []string
		seconds      float64
		busiest      float64
		measured     bool
		offset       time.Duration
	}
	var order []string
	by := map[string]*acc{}
	for _, g := range groups {
		host := cmp.Or(g.Host, "local")
		a := by[host]
		if a == nil {
			a = &acc{}
			by[host] = a
			order = append(order, host)
		}
		a.groups = append(a.groups, fmt.Sprint(g.Index))
		a.cpus = append(a.cpus, cmp.Or(g.CPUs, "unpinned"))
		a.offset = g.ClockOffset
		if g.CPU != nil {
			a.measured = true
			a.seconds += g.CPU.Seconds
			a.busiest = max(a.busiest, g.CPU.Busy)
		}
	}
	for _, h := range order {
		a := by[h]
		noun := "groups"
		if len(a.groups) == 1 {
			noun = "group"
		}
		fmt.Fprintf(b, "host %s: %s %s on CPUs %s", h, noun, strings.Join(a.groups, ", "), strings.Join(a.cpus, " "))
		if a.measured {
			fmt.Fprintf(b, ", client CPU %.2f s (busiest group %s)", a.seconds, format.Percent(a.busiest))
		}
		if h != "local" {
			fmt.Fprintf(b, ", clock offset %s", a.offset.Round(time.Microsecond))
		}
		b.WriteByte('\n')
	}
}
