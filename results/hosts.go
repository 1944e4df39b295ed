package results

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// RemoteHost is what a run records about one ssh host.
type RemoteHost struct {
	// Name is the host as written in the scenario.
	Name string `json:"name"`
	// Roles says what it did: "groups 1, 2", "the server".
	Roles string `json:"roles,omitempty"`
	// Platform is its GOOS/GOARCH ("" when it ran no group).
	Platform string `json:"platform,omitempty"`
	// Binary is the sha256 of the kaeload binary its groups ran.
	Binary string `json:"binary_sha256,omitempty"`
	// Uploaded says the binary was uploaded by this run (else found).
	Uploaded bool `json:"uploaded,omitempty"`
	// RTT and ClockOffset are the last measured round trip and clock
	// offset (the host's clock minus the controller's); per window they
	// are in the groups (Group.ClockOffset).
	RTT         time.Duration `json:"rtt,omitempty"`
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	// Uncertain is set when half the round trip exceeded 1 % of the window.
	Uncertain bool `json:"clock_uncertain,omitempty"`
	// Facts are a few facts about the machine; nil when not read.
	Facts *RemoteFacts `json:"facts,omitempty"`
}

// RemoteFacts are facts about a remote machine, read over ssh.
type RemoteFacts struct {
	// Kernel is `uname -srm`.
	Kernel string `json:"kernel,omitempty"`
	// CPUs is `nproc`.
	CPUs int `json:"cpus,omitempty"`
	// CPUModel is /proc/cpuinfo's model name.
	CPUModel string `json:"cpu_model,omitempty"`
}

// hasHosts reports whether any group ran on an ssh host.
func hasHosts(groups []Group) bool {
	for _, g := range groups {
		if g.Host != "" {
			return true
		}
	}
	return false
}

// writeHosts lists the run's ssh hosts, one HostLine each.
func writeHosts(b *bytes.Buffer, hosts []RemoteHost) {
	for _, h := range hosts {
		fmt.Fprintf(b, "host      %s\n", HostLine(h))
	}
}

// HostLine describes an ssh host of a run in one line: what it did, the
// machine, the kaeload binary and the clock.
func HostLine(h RemoteHost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", h.Name, h.Roles)
	if f := h.Facts; f != nil {
		fmt.Fprintf(&b, "; %d CPUs", f.CPUs)
		if f.CPUModel != "" {
			fmt.Fprintf(&b, " (%s)", f.CPUModel)
		}
		if f.Kernel != "" {
			fmt.Fprintf(&b, ", %s", f.Kernel)
		}
	}
	if h.Binary != "" {
		how := "found"
		if h.Uploaded {
			how = "uploaded"
		}
		fmt.Fprintf(&b, "; kaeload %s sha256 %.16s %s", h.Platform, h.Binary, how)
	}
	if h.RTT > 0 {
		fmt.Fprintf(&b, "; round trip %s, clock offset %s ± %s", h.RTT.Round(time.Microsecond), h.ClockOffset.Round(time.Microsecond), (h.RTT / 2).Round(time.Microsecond))
		if h.Uncertain {
			b.WriteString(" (UNCERTAIN: more than 1 % of the window)")
		}
	}
	return b.String()
}

// writeHostGroups sums a repetition's groups per host: groups, CPUs,
// client CPU and clock offset.
func writeHostGroups(b *bytes.Buffer, groups []Group) {
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
		host := g.Host
		if host == "" {
			host = "local"
		}
		a := by[host]
		if a == nil {
			a = &acc{}
			by[host] = a
			order = append(order, host)
		}
		a.groups = append(a.groups, fmt.Sprint(g.Index))
		cpus := g.CPUs
		if cpus == "" {
			cpus = "unpinned"
		}
		a.cpus = append(a.cpus, cpus)
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
			fmt.Fprintf(b, ", client CPU %.2f s (busiest group %s)", a.seconds, FormatPercent(a.busiest))
		}
		if h != "local" {
			fmt.Fprintf(b, ", clock offset %s", a.offset.Round(time.Microsecond))
		}
		b.WriteByte('\n')
	}
}
