package cpustat

import (
	"fmt"
	"math"
	"os"
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

// numTCPExt is how many of TCPCounterNames are TcpExt's.
const numTCPExt = 10

var tcpCounterIndex = func() map[string]int {
	m := make(map[string]int, len(TCPCounterNames))
	for i, n := range TCPCounterNames {
		m[n] = i
	}
	return m
}()

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
type TCPDelta struct {
	Namespace   NetNS
	Values      map[string]uint64
	Unavailable map[string]string
}

// Get returns counter name's value and whether it has one.
func (s TCPSnapshot) Get(name string) (uint64, bool) {
	v, ok := s.Values[name]
	return v, ok
}

// Get returns counter name's growth and whether it has one.
func (d TCPDelta) Get(name string) (uint64, bool) {
	v, ok := d.Values[name]
	return v, ok
}

// Delta returns how much each counter grew from a to b. A counter missing
// from either, reset, or of another namespace is not available; a 32-bit
// one that wrapped counts across the wrap.
func (a TCPSnapshot) Delta(b TCPSnapshot) TCPDelta {
	d := TCPDelta{Namespace: b.Namespace, Values: make(map[string]uint64, len(TCPCounterNames))}
	unavailable := func(name, why string) {
		if d.Unavailable == nil {
			d.Unavailable = make(map[string]string)
		}
		d.Unavailable[name] = why
	}
	if a.Namespace.Known() && b.Namespace.Known() && a.Namespace != b.Namespace {
		for _, name := range TCPCounterNames {
			unavailable(name, fmt.Sprintf("the snapshots are of two network namespaces (%s, then %s)", a.Namespace, b.Namespace))
		}
		d.Values = nil
		return d
	}
	for _, name := range TCPCounterNames {
		va, okA := a.Values[name]
		vb, okB := b.Values[name]
		switch {
		case !okA:
			unavailable(name, "earlier snapshot: "+reasonOr(a.Unavailable[name]))
		case !okB:
			unavailable(name, "later snapshot: "+reasonOr(b.Unavailable[name]))
		case vb >= va:
			d.Values[name] = vb - va
		case va <= math.MaxUint32 && math.MaxUint32-va+vb+1 < 1<<31:
			d.Values[name] = math.MaxUint32 - va + vb + 1 // a 32-bit counter wrapped
		default:
			unavailable(name, fmt.Sprintf("went down from %d to %d: the counter was reset", va, vb))
		}
	}
	return d
}

func reasonOr(why string) string {
	if why == "" {
		return "not read"
	}
	return why
}

// ParseTCPCounters parses /proc/net/netstat and /proc/net/snmp into a
// snapshot without a Namespace. It never fails: a counter it cannot read
// is not available, with the reason.
func ParseTCPCounters(netstat, snmp string) TCPSnapshot {
	var p tcpParse
	p.section("/proc/net/netstat", netstat, "TcpExt:", 0, numTCPExt)
	p.section("/proc/net/snmp", snmp, "Tcp:", numTCPExt, len(TCPCounterNames))
	return p.snapshot()
}

type tcpParse struct {
	values [len(TCPCounterNames)]uint64
	why    [len(TCPCounterNames)]string // "" when the value was read
}

// fail marks counters [lo, hi) that have no reason yet as not available.
func (p *tcpParse) fail(lo, hi int, why string) {
	for i := lo; i < hi; i++ {
		p.why[i] = why
	}
}

// section reads counters [lo, hi) from the lines that start with prefix
// ("TcpExt:"): a header line of names, then a line of as many values.
func (p *tcpParse) section(file, text, prefix string, lo, hi int) {
	p.fail(lo, hi, "not in this kernel's "+file)
	var header, values string
	found := false
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		header = line[len(prefix):]
		line, _, _ = strings.Cut(rest, "\n")
		if !strings.HasPrefix(line, prefix) {
			p.fail(lo, hi, fmt.Sprintf("%s: its %s header line has no values line after it", file, strings.TrimSuffix(prefix, ":")))
			return
		}
		values = line[len(prefix):]
		found = true
		break
	}
	if !found {
		p.fail(lo, hi, fmt.Sprintf("%s: no %s lines%s", file, strings.TrimSuffix(prefix, ":"), quoteFirstLine(text)))
		return
	}
	if nh, nv := countFields(header), countFields(values); nh != nv {
		p.fail(lo, hi, fmt.Sprintf("%s: its %s header names %d counters but its values line has %d", file, strings.TrimSuffix(prefix, ":"), nh, nv))
		return
	}
	for {
		var name, value string
		name, header = nextField(header)
		value, values = nextField(values)
		if name == "" {
			return
		}
		i, ok := tcpCounterIndex[name]
		if !ok || i < lo || i >= hi || p.why[i] == "" {
			continue // not ours, or a repeated name: the first one counts
		}
		v, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			p.why[i] = fmt.Sprintf("%s: %s is %q, not a count", file, name, value)
			continue
		}
		p.values[i], p.why[i] = v, ""
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

// nextField returns the first space-separated field of s and the rest,
// without allocating.
func nextField[S string | []byte](s S) (field, rest S) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' {
		j++
	}
	return s[i:j], s[j:]
}

func countFields(s string) int {
	n := 0
	for f, rest := nextField(s); f != ""; f, rest = nextField(rest) {
		n++
	}
	return n
}

func (p *tcpParse) snapshot() TCPSnapshot {
	s := TCPSnapshot{Values: make(map[string]uint64, len(TCPCounterNames))}
	for i, name := range TCPCounterNames {
		if p.why[i] == "" {
			s.Values[name] = p.values[i]
			continue
		}
		if s.Unavailable == nil {
			s.Unavailable = make(map[string]string)
		}
		s.Unavailable[name] = p.why[i]
	}
	return s
}

// ReadTCPCounters reads the TCP counters of this process's network
// namespace; a file it cannot read makes its counters not available.
func ReadTCPCounters() TCPSnapshot {
	return readTCPCounters("/proc/self")
}

// ReadTCPCountersOf reads the TCP counters of process pid's network
// namespace, such as a local server's own.
func ReadTCPCountersOf(pid int) TCPSnapshot {
	return readTCPCounters("/proc/" + strconv.Itoa(pid))
}

// readTCPCounters reads the counters and namespace of proc, a /proc
// process directory.
func readTCPCounters(proc string) TCPSnapshot {
	var p tcpParse
	for _, f := range []struct {
		name, prefix string
		lo, hi       int
	}{{"netstat", "TcpExt:", 0, numTCPExt}, {"snmp", "Tcp:", numTCPExt, len(TCPCounterNames)}} {
		b, err := os.ReadFile(proc + "/net/" + f.name)
		if err != nil {
			p.fail(f.lo, f.hi, err.Error())
			continue
		}
		p.section("/proc/net/"+f.name, string(b), f.prefix, f.lo, f.hi)
	}
	s := p.snapshot()
	s.Namespace, _ = readNetNS(proc)
	return s
}

const (
	tcpMarkNS      = "@@kaeload-netns@@"
	tcpMarkNetstat = "@@kaeload-netstat@@"
	tcpMarkSNMP    = "@@kaeload-snmp@@"
)

// RemoteTCPCountersCommand is the shell command whose output
// ParseRemoteTCPCounters reads, in one ssh round trip: the network
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

// ParseRemoteTCPCounters parses the output of RemoteTCPCountersCommand.
// It never fails: output without its markers leaves every counter not
// available.
func ParseRemoteTCPCounters(out string) TCPSnapshot {
	_, rest, ok1 := strings.Cut(out, tcpMarkNS+"\n")
	ns, rest, ok2 := strings.Cut(rest, tcpMarkNetstat+"\n")
	netstat, snmp, ok3 := strings.Cut(rest, tcpMarkSNMP+"\n")
	if !ok1 || !ok2 || !ok3 {
		var p tcpParse
		p.fail(0, len(TCPCounterNames), "the remote command's output lacks its markers"+quoteFirstLine(out))
		return p.snapshot()
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
	digits, ok := strings.CutPrefix(link, "net:[")
	if digits, ok = strings.CutSuffix(digits, "]"); !ok {
		return NetNS{}, fmt.Errorf("network namespace link %q: want net:[INODE]", link)
	}
	ino, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || ino == 0 {
		return NetNS{}, fmt.Errorf("network namespace link %q: want net:[INODE]", link)
	}
	if bootID == "" || strings.ContainsAny(bootID, " \t\n") {
		return NetNS{}, fmt.Errorf("boot ID %q: want one word", bootID)
	}
	return NetNS{BootID: bootID, Inode: ino}, nil
}

// LocalNetNS returns this process's network namespace.
func LocalNetNS() (NetNS, error) { return readNetNS("/proc/self") }

// ProcessNetNS returns the network namespace of process pid on this
// machine.
func ProcessNetNS(pid int) (NetNS, error) { return readNetNS("/proc/" + strconv.Itoa(pid)) }

func readNetNS(proc string) (NetNS, error) {
	link, err := os.Readlink(proc + "/ns/net")
	if err != nil {
		return NetNS{}, fmt.Errorf("read network namespace: %w", err)
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return NetNS{}, fmt.Errorf("read network namespace: %w", err)
	}
	return ParseNetNS(link, string(boot))
}
