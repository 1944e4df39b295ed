package cpustat

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// TCPCounterNames lists the kernel TCP counters a TCPSnapshot holds, by
// the kernel's names: TcpExt's (/proc/net/netstat), then Tcp's (/proc/net/snmp).
var TCPCounterNames = [...]string{
	"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPTimeWaitOverflow",
	"TCPReqQFullDrop", "TCPReqQFullDoCookies", "SyncookiesSent",
	"TCPAbortOnData", "TCPAbortOnClose", "TCPAbortOnMemory",
	"ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "OutRsts", "RetransSegs",
}

// NumTCPExt is how many of TCPCounterNames are TcpExt's.
const NumTCPExt = 10

// tcpFiles are where the counters are: each file's section, and the counters of it.
var tcpFiles = [2]struct {
	name, section string
	counters      []string
}{{"netstat", "TcpExt", TCPCounterNames[:NumTCPExt]}, {"snmp", "Tcp", TCPCounterNames[NumTCPExt:]}}

// TCPSnapshot holds the TCP counters of one network namespace at one
// instant. Every counter is in exactly one of Values and Unavailable (the
// reason, by name): one this kernel lacks or could not read is never a zero.
type TCPSnapshot struct {
	Namespace   NetNS // zero when it could not be read
	Values      map[string]uint64
	Unavailable map[string]string
}

// TCPDelta is how much each counter grew between two snapshots of one
// network namespace (the later one's), split as in a TCPSnapshot.
type TCPDelta = TCPSnapshot

// Get returns counter name's value and whether it has one.
func (s TCPSnapshot) Get(name string) (uint64, bool) {
	v, ok := s.Values[name]
	return v, ok
}

// unavailable marks counters names as not available, for why.
func (s *TCPSnapshot) unavailable(why string, names ...string) {
	if s.Unavailable == nil {
		s.Unavailable = make(map[string]string)
	}
	for _, name := range names {
		s.Unavailable[name] = why
	}
}

// Delta is how much each counter grew from a to b: not available if missing from either, reset
// or of another namespace; a 32-bit one that wrapped counts across the wrap.
func (a TCPSnapshot) Delta(b TCPSnapshot) TCPDelta {
	d := TCPDelta{Namespace: b.Namespace}
	if a.Namespace.Known() && b.Namespace.Known() && a.Namespace != b.Namespace {
		why := fmt.Sprintf("the snapshots are of two network namespaces (%s, then %s)", a.Namespace, b.Namespace)
		d.unavailable(why, TCPCounterNames[:]...)
		return d
	}
	d.Values = make(map[string]uint64, len(TCPCounterNames))
	for _, name := range TCPCounterNames {
		va, okA := a.Values[name]
		vb, okB := b.Values[name]
		switch {
		case !okA:
			d.unavailable("earlier snapshot: "+cmp.Or(a.Unavailable[name], "not read"), name)
		case !okB:
			d.unavailable("later snapshot: "+cmp.Or(b.Unavailable[name], "not read"), name)
		case vb >= va:
			d.Values[name] = vb - va
		case va <= math.MaxUint32 && math.MaxUint32-va+vb+1 < 1<<31:
			d.Values[name] = math.MaxUint32 - va + vb + 1 // a 32-bit counter wrapped
		default:
			d.unavailable(fmt.Sprintf("went down from %d to %d: the counter was reset", va, vb), name)
		}
	}
	return d
}

// ParseTCPCounters parses /proc/net/netstat and /proc/net/snmp into a
// snapshot without a Namespace; a counter it cannot read is not available.
func ParseTCPCounters(netstat, snmp string) TCPSnapshot {
	s := TCPSnapshot{Values: make(map[string]uint64, len(TCPCounterNames))}
	s.section(0, netstat)
	s.section(1, snmp)
	return s
}

// section reads the counters of tcpFiles[i] from text, the file's header
// line of names ("TcpExt: …") and the line of as many values after it.
func (s *TCPSnapshot) section(i int, text string) {
	file, prefix := "/proc/net/"+tcpFiles[i].name, tcpFiles[i].section+":"
	why := "not in this kernel's " + file
	lines := strings.Split(text, "\n")
	var names, values []string
	switch h := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) }); {
	case h < 0:
		why = fmt.Sprintf("%s: no %s lines%s", file, tcpFiles[i].section, quoteFirstLine(text))
	case h+1 == len(lines) || !strings.HasPrefix(lines[h+1], prefix):
		why = fmt.Sprintf("%s: its %s header line has no values line after it", file, tcpFiles[i].section)
	default:
		names, values = strings.Fields(lines[h][len(prefix):]), strings.Fields(lines[h+1][len(prefix):])
		if len(names) != len(values) {
			why = fmt.Sprintf("%s: its %s header names %d counters but its values line has %d",
				file, tcpFiles[i].section, len(names), len(values))
			names = nil
		}
	}
	for _, name := range tcpFiles[i].counters {
		j := slices.Index(names, name) // a repeated name: the first one counts
		if j < 0 {
			s.unavailable(why, name)
		} else if v, err := strconv.ParseUint(values[j], 10, 64); err != nil {
			s.unavailable(fmt.Sprintf("%s: %s is %q, not a count", file, name, values[j]), name)
		} else {
			s.Values[name] = v
		}
	}
}

// quoteFirstLine returns ` ("first line")` of text (an error a remote cat
// printed), or "" when that line is blank.
func quoteFirstLine(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	line = strings.TrimSpace(line)
	if line == "" {
		return ""
	}
	if len(line) > 120 {
		line = line[:120] + "…"
	}
	return fmt.Sprintf(" (%q)", line)
}

// ReadTCPCounters reads the TCP counters of this process's network
// namespace; a file it cannot read makes its counters not available.
func ReadTCPCounters() TCPSnapshot { return readTCPCounters("/proc/self") }

// ReadTCPCountersOf reads the TCP counters of process pid's network
// namespace, such as a local server's own.
func ReadTCPCountersOf(pid int) TCPSnapshot { return readTCPCounters("/proc/" + strconv.Itoa(pid)) }

// readTCPCounters reads the counters and namespace of proc, a /proc process directory.
func readTCPCounters(proc string) TCPSnapshot {
	s := TCPSnapshot{Values: make(map[string]uint64, len(TCPCounterNames))}
	for i, f := range tcpFiles {
		if b, err := os.ReadFile(proc + "/net/" + f.name); err != nil {
			s.unavailable(err.Error(), f.counters...)
		} else {
			s.section(i, string(b))
		}
	}
	s.Namespace, _ = readNetNS(proc)
	return s
}

const (
	tcpMarkNS      = "@@kaeload-netns@@"
	tcpMarkNetstat = "@@kaeload-netstat@@"
	tcpMarkSNMP    = "@@kaeload-snmp@@"
)

// RemoteTCPCountersCommand prints in one ssh round trip, for ParseRemoteTCPCounters, the network
// namespace of pid (> 0) or the shell, the boot ID and both counter files.
func RemoteTCPCountersCommand(pid int) string {
	proc := "/proc/self"
	if pid > 0 {
		proc = "/proc/" + strconv.Itoa(pid)
	}
	return "echo " + tcpMarkNS + "; readlink " + proc + "/ns/net; cat /proc/sys/kernel/random/boot_id; " +
		"echo " + tcpMarkNetstat + "; cat " + proc + "/net/netstat 2>&1; " +
		"echo " + tcpMarkSNMP + "; cat " + proc + "/net/snmp 2>&1; true"
}

// ParseRemoteTCPCounters parses the output of RemoteTCPCountersCommand;
// without its markers, no counter is available.
func ParseRemoteTCPCounters(out string) TCPSnapshot {
	_, rest, ok1 := strings.Cut(out, tcpMarkNS+"\n")
	ns, rest, ok2 := strings.Cut(rest, tcpMarkNetstat+"\n")
	netstat, snmp, ok3 := strings.Cut(rest, tcpMarkSNMP+"\n")
	if !ok1 || !ok2 || !ok3 {
		s := TCPSnapshot{Values: map[string]uint64{}}
		s.unavailable("the remote command's output lacks its markers"+quoteFirstLine(out), TCPCounterNames[:]...)
		return s
	}
	s := ParseTCPCounters(netstat, snmp)
	link, boot, _ := strings.Cut(ns, "\n")
	if n, err := ParseNetNS(link, boot); err == nil {
		s.Namespace = n
	}
	return s
}

// NetNS identifies a network namespace by its kernel's boot ID and its
// inode number: inode numbers repeat across machines, boot IDs do not.
type NetNS struct {
	BootID string `json:"boot_id"` // /proc/sys/kernel/random/boot_id
	Inode  uint64 `json:"inode"`   // readlink /proc/PID/ns/net
}

// Known says whether n was read, both parts of it.
func (n NetNS) Known() bool { return n.BootID != "" && n.Inode != 0 }

// Same says whether n and m are known and the same namespace, whose
// counters count the same packets.
func (n NetNS) Same(m NetNS) bool { return n.Known() && n == m }

// String is the namespace as readlink prints it, with the first 8
// characters of the boot ID: "net:[4026531840]@1c2d3e4f".
func (n NetNS) String() string {
	if !n.Known() {
		return "unknown network namespace"
	}
	return fmt.Sprintf("net:[%d]@%.8s", n.Inode, n.BootID)
}

// ParseNetNS parses a namespace link ("net:[4026531840]", as readlink
// prints /proc/PID/ns/net) and a boot ID into a NetNS.
func ParseNetNS(link, bootID string) (NetNS, error) {
	link, bootID = strings.TrimSpace(link), strings.TrimSpace(bootID)
	var ino uint64
	if _, err := fmt.Sscanf(link, "net:[%d]", &ino); err != nil || ino == 0 || !strings.HasSuffix(link, "]") {
		return NetNS{}, fmt.Errorf("network namespace link %q: want net:[INODE]", link)
	}
	if bootID == "" || strings.ContainsAny(bootID, " \t\n") {
		return NetNS{}, fmt.Errorf("boot ID %q: want one word", bootID)
	}
	return NetNS{BootID: bootID, Inode: ino}, nil
}

// LocalNetNS returns this process's network namespace.
func LocalNetNS() (NetNS, error) { return readNetNS("/proc/self") }

// ProcessNetNS returns the network namespace of process pid on this machine.
func ProcessNetNS(pid int) (NetNS, error) { return readNetNS("/proc/" + strconv.Itoa(pid)) }

func readNetNS(proc string) (NetNS, error) {
	link, err1 := os.Readlink(proc + "/ns/net")
	boot, err2 := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err := errors.Join(err1, err2); err != nil {
		return NetNS{}, fmt.Errorf("read network namespace: %w", err)
	}
	return ParseNetNS(link, string(boot))
}
