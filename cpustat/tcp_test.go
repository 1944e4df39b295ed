package cpustat

import (
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// naiveCounters is the test's own reading of a /proc/net/netstat or snmp
// text: every "Prefix: names" line and the line after it, by name. It
// is written differently from the parser (strings.Fields, no lookup
// table) so that the two check each other.
func naiveCounters(t *testing.T, text, prefix string) map[string]string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i := 0; i+1 < len(lines); i++ {
		h, v := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if len(h) == 0 || h[0] != prefix || len(v) == 0 || v[0] != prefix {
			continue
		}
		if len(h) != len(v) {
			t.Fatalf("%s lines of %d and %d fields", prefix, len(h), len(v))
		}
		m := map[string]string{}
		for j := 1; j < len(h); j++ {
			m[h[j]] = v[j]
		}
		return m
	}
	return nil
}

// checkPartition fails unless every counter is in exactly one of values
// and unavailable, and nothing else is in them.
func checkPartition(t *testing.T, values map[string]uint64, unavailable map[string]string) {
	t.Helper()
	for _, name := range TCPCounterNames {
		_, v := values[name]
		why, u := unavailable[name]
		if v == u {
			t.Errorf("%s: in values %v, in unavailable %v: want exactly one", name, v, u)
		}
		if u && why == "" {
			t.Errorf("%s: not available without a reason", name)
		}
	}
	if n := len(values) + len(unavailable); n != len(TCPCounterNames) {
		t.Errorf("%d counters in all, want %d: %v %v", n, len(TCPCounterNames), values, unavailable)
	}
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseTCPCountersFixtures: a 6.18 kernel's files (every counter, and
// an MPTcpExt section that must not be taken for TcpExt) against the
// test's own reading, and a 2.6.32-era kernel's (no TCPSynRetrans,
// TCPTimeWaitOverflow, TCPReqQFull*) with its figures: the missing four
// are not available, not zero.
func TestParseTCPCountersFixtures(t *testing.T) {
	netstat, snmp := readFixture(t, "proc-net-netstat-6.18.txt"), readFixture(t, "proc-net-snmp-6.18.txt")
	s := ParseTCPCounters(netstat, snmp)
	checkPartition(t, s.Values, s.Unavailable)
	if len(s.Unavailable) != 0 {
		t.Errorf("6.18: not available: %v", s.Unavailable)
	}
	ext, tcp := naiveCounters(t, netstat, "TcpExt:"), naiveCounters(t, snmp, "Tcp:")
	for i, name := range TCPCounterNames {
		want := ext[name]
		if i >= NumTCPExt {
			want = tcp[name]
		}
		if got := strconv.FormatUint(s.Values[name], 10); got != want {
			t.Errorf("6.18: %s = %s, want %s", name, got, want)
		}
	}

	s = ParseTCPCounters(readFixture(t, "proc-net-netstat-2.6.32.txt"), readFixture(t, "proc-net-snmp-2.6.32.txt"))
	checkPartition(t, s.Values, s.Unavailable)
	want := map[string]uint64{
		"ListenOverflows": 4581, "ListenDrops": 4590, "SyncookiesSent": 17,
		"TCPAbortOnData": 12, "TCPAbortOnClose": 3, "TCPAbortOnMemory": 0,
		"ActiveOpens": 60311, "PassiveOpens": 60207, "AttemptFails": 4, "EstabResets": 9, "OutRsts": 211, "RetransSegs": 1967,
	}
	if !maps.Equal(s.Values, want) {
		t.Errorf("2.6.32: values %v\nwant %v", s.Values, want)
	}
	for _, name := range []string{"TCPSynRetrans", "TCPTimeWaitOverflow", "TCPReqQFullDrop", "TCPReqQFullDoCookies"} {
		if got, want := s.Unavailable[name], "not in this kernel's /proc/net/netstat"; got != want {
			t.Errorf("2.6.32: %s not available because %q, want %q", name, got, want)
		}
	}
}

// TestParseTCPCountersBroken: files missing, cut short or garbled make
// their counters not available, with the reason, and leave the other
// file's counters alone.
func TestParseTCPCountersBroken(t *testing.T) {
	snmp := "Tcp: RtoAlgorithm MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets OutRsts RetransSegs\nTcp: 1 -1 10 20 30 40 50 60\n"
	tcpWant := map[string]uint64{"ActiveOpens": 10, "PassiveOpens": 20, "AttemptFails": 30, "EstabResets": 40, "OutRsts": 50, "RetransSegs": 60}
	for _, tc := range []struct {
		name, netstat string
		ext           map[string]uint64 // the TcpExt counters read
		why           string            // the reason given for the others
	}{
		{"empty", "", nil, "/proc/net/netstat: no TcpExt lines"},
		{"a cat error", "cat: /proc/net/netstat: No such file or directory\n", nil,
			`/proc/net/netstat: no TcpExt lines ("cat: /proc/net/netstat: No such file or directory")`},
		{"header only", "TcpExt: ListenOverflows ListenDrops\n", nil, "/proc/net/netstat: its TcpExt header line has no values line after it"},
		{"values short", "TcpExt: ListenOverflows ListenDrops\nTcpExt: 5\n", nil, "/proc/net/netstat: its TcpExt header names 2 counters but its values line has 1"},
		{"MPTcpExt is not TcpExt", "MPTcpExt: ListenOverflows\nMPTcpExt: 99\nTcpExt: ListenOverflows\nTcpExt: 7\n",
			map[string]uint64{"ListenOverflows": 7}, "not in this kernel's /proc/net/netstat"},
		{"not a count", "TcpExt: ListenOverflows ListenDrops\nTcpExt: -1 18446744073709551615\n",
			map[string]uint64{"ListenDrops": math.MaxUint64}, "not in this kernel's /proc/net/netstat"},
		{"first pair counts", "TcpExt: ListenDrops\nTcpExt: 1\nTcpExt: ListenDrops\nTcpExt: 2\n",
			map[string]uint64{"ListenDrops": 1}, "not in this kernel's /proc/net/netstat"},
		{"CRLF and tabs", "TcpExt:\tListenDrops  SyncookiesSent\r\nTcpExt:\t3  4\r\n",
			map[string]uint64{"ListenDrops": 3, "SyncookiesSent": 4}, "not in this kernel's /proc/net/netstat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ParseTCPCounters(tc.netstat, snmp)
			checkPartition(t, s.Values, s.Unavailable)
			want := maps.Clone(tcpWant)
			maps.Copy(want, tc.ext)
			if !maps.Equal(s.Values, want) {
				t.Errorf("values %v, want %v", s.Values, want)
			}
			for _, name := range TCPCounterNames[:NumTCPExt] {
				if _, ok := tc.ext[name]; ok {
					continue
				}
				if name == "ListenOverflows" && tc.name == "not a count" {
					if got, want := s.Unavailable[name], `/proc/net/netstat: ListenOverflows is "-1", not a count`; got != want {
						t.Errorf("%s: %q, want %q", name, got, want)
					}
					continue
				}
				if got := s.Unavailable[name]; got != tc.why {
					t.Errorf("%s: not available because %q, want %q", name, got, tc.why)
				}
			}
		})
	}
	s := ParseTCPCounters("TcpExt: ListenDrops\nTcpExt: 1\n", "")
	for _, name := range TCPCounterNames[NumTCPExt:] {
		if got, want := s.Unavailable[name], "/proc/net/snmp: no Tcp lines"; got != want {
			t.Errorf("no snmp: %s: %q, want %q", name, got, want)
		}
	}
}

func snap(ns NetNS, kv ...any) TCPSnapshot {
	s := TCPSnapshot{Namespace: ns, Values: map[string]uint64{}, Unavailable: map[string]string{}}
	for _, name := range TCPCounterNames {
		s.Unavailable[name] = "absent"
	}
	for i := 0; i < len(kv); i += 2 {
		name := kv[i].(string)
		s.Values[name] = uint64(kv[i+1].(int))
		delete(s.Unavailable, name)
	}
	return s
}

func TestTCPDelta(t *testing.T) {
	ns := NetNS{BootID: "b1", Inode: 4026531840}
	a := snap(ns, "ListenOverflows", 100, "ListenDrops", math.MaxUint32-5, "OutRsts", 1<<40, "RetransSegs", 50, "ActiveOpens", 7, "SyncookiesSent", 3)
	b := snap(ns, "ListenOverflows", 250, "ListenDrops", 10, "OutRsts", 5, "RetransSegs", 50, "ActiveOpens", 3, "PassiveOpens", 9)
	d := a.Delta(b)
	checkPartition(t, d.Values, d.Unavailable)
	want := map[string]uint64{
		"ListenOverflows": 150,
		"ListenDrops":     16, // a 32-bit counter wrapped: 5 to 2^32, then 11
		"RetransSegs":     0,
	}
	if !maps.Equal(d.Values, want) {
		t.Errorf("delta %v, want %v", d.Values, want)
	}
	for name, why := range map[string]string{
		"OutRsts":        "went down from 1099511627776 to 5: the counter was reset",
		"ActiveOpens":    "went down from 7 to 3: the counter was reset", // fits 32 bits, but a wrap would be 2^32-4: not plausible
		"PassiveOpens":   "earlier snapshot: absent",
		"SyncookiesSent": "later snapshot: absent",
		"AttemptFails":   "earlier snapshot: absent",
	} {
		if got := d.Unavailable[name]; got != why {
			t.Errorf("%s: %q, want %q", name, got, why)
		}
	}
	if v, ok := d.Get("ListenOverflows"); !ok || v != 150 {
		t.Errorf("Get(ListenOverflows) = %d, %v", v, ok)
	}

	other := b
	other.Namespace = NetNS{BootID: "b1", Inode: 4026532000}
	d = a.Delta(other)
	checkPartition(t, d.Values, d.Unavailable)
	if len(d.Values) != 0 || !strings.Contains(d.Unavailable["ListenOverflows"], "two network namespaces") {
		t.Errorf("delta across namespaces: %v %v", d.Values, d.Unavailable)
	}
	// Unknown namespaces (a host where readlink failed) are not refused.
	if d := snap(NetNS{}, "ListenDrops", 1).Delta(snap(ns, "ListenDrops", 4)); d.Values["ListenDrops"] != 3 {
		t.Errorf("delta from an unknown namespace: %v %v", d.Values, d.Unavailable)
	}
}

func TestParseRemoteTCPCounters(t *testing.T) {
	netstat, snmp := readFixture(t, "proc-net-netstat-6.18.txt"), readFixture(t, "proc-net-snmp-6.18.txt")
	out := tcpMarkNS + "\nnet:[4026531840]\n6f1d2a3b-0000-4000-8000-000000000001\n" + tcpMarkNetstat + "\n" + netstat + tcpMarkSNMP + "\n" + snmp
	s := ParseRemoteTCPCounters(out)
	if want := ParseTCPCounters(netstat, snmp); !maps.Equal(s.Values, want.Values) || len(s.Unavailable) != 0 {
		t.Errorf("remote %v %v, want %v", s.Values, s.Unavailable, want.Values)
	}
	if got, want := s.Namespace, (NetNS{BootID: "6f1d2a3b-0000-4000-8000-000000000001", Inode: 4026531840}); got != want {
		t.Errorf("namespace %+v, want %+v", got, want)
	}
	if got, want := s.Namespace.String(), "net:[4026531840]@6f1d2a3b"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}

	// snmp unreadable there: its counters alone are not available.
	out = tcpMarkNS + "\nreadlink: permission denied\n\n" + tcpMarkNetstat + "\n" + netstat + tcpMarkSNMP + "\ncat: /proc/net/snmp: Permission denied\n"
	s = ParseRemoteTCPCounters(out)
	checkPartition(t, s.Values, s.Unavailable)
	if s.Namespace.Known() || len(s.Values) != NumTCPExt ||
		s.Unavailable["OutRsts"] != `/proc/net/snmp: no Tcp lines ("cat: /proc/net/snmp: Permission denied")` {
		t.Errorf("snmp unreadable: %+v %v %v", s.Namespace, s.Values, s.Unavailable)
	}

	s = ParseRemoteTCPCounters("sh: 1: Syntax error\n")
	checkPartition(t, s.Values, s.Unavailable)
	if len(s.Values) != 0 || s.Unavailable["ListenDrops"] != `the remote command's output lacks its markers ("sh: 1: Syntax error")` {
		t.Errorf("garbage: %v %v", s.Values, s.Unavailable)
	}
}

func TestParseNetNS(t *testing.T) {
	for _, tc := range []struct {
		link, boot string
		ok         bool
	}{
		{"net:[4026531840]\n", "abc\n", true},
		{"net:[0]", "abc", false},
		{"mnt:[4026531840]", "abc", false},
		{"net:[4026531840", "abc", false},
		{"net:[4026531840]", "", false},
		{"net:[4026531840]", "a b", false},
	} {
		n, err := ParseNetNS(tc.link, tc.boot)
		if (err == nil) != tc.ok || n.Known() != tc.ok {
			t.Errorf("ParseNetNS(%q, %q) = %+v, %v; want ok %v", tc.link, tc.boot, n, err, tc.ok)
		}
	}
	a, b := NetNS{"x", 1}, NetNS{"y", 1}
	if a.Same(b) || !a.Same(a) || (NetNS{}).Same(NetNS{}) {
		t.Error("Same: namespaces of two kernels, or unknown ones, compared equal; or one differed from itself")
	}
}

// FuzzParseNetstat: any text gives every counter exactly once, as a value
// or as not available; a value is only read for a name the text holds.
func FuzzParseNetstat(f *testing.F) {
	for _, pair := range [][2]string{
		{"proc-net-netstat-6.18.txt", "proc-net-snmp-6.18.txt"},
		{"proc-net-netstat-2.6.32.txt", "proc-net-snmp-2.6.32.txt"},
	} {
		a, err := os.ReadFile("testdata/" + pair[0])
		if err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile("testdata/" + pair[1])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(a), string(b))
	}
	f.Add("TcpExt: ListenOverflows\nTcpExt: 1", "Tcp: OutRsts\nTcp: -1\n")
	f.Fuzz(func(t *testing.T, netstat, snmp string) {
		s := ParseTCPCounters(netstat, snmp)
		checkPartition(t, s.Values, s.Unavailable)
		for i, name := range TCPCounterNames {
			text := netstat
			if i >= NumTCPExt {
				text = snmp
			}
			if _, ok := s.Values[name]; ok && !strings.Contains(text, name) {
				t.Fatalf("%s read from text that does not name it", name)
			}
		}
		if again := ParseTCPCounters(netstat, snmp); !maps.Equal(again.Values, s.Values) || !maps.Equal(again.Unavailable, s.Unavailable) {
			t.Fatal("two parses of one text differ")
		}
		r := ParseRemoteTCPCounters(tcpMarkNS + "\n\n\n" + tcpMarkNetstat + "\n" + netstat + "\n" + tcpMarkSNMP + "\n" + snmp)
		checkPartition(t, r.Values, r.Unavailable)
		if !slices.Equal(slices.Sorted(maps.Keys(r.Values)), slices.Sorted(maps.Keys(s.Values))) && !strings.Contains(netstat+snmp, "@@") {
			t.Fatalf("remote parse read %v, local %v", r.Values, s.Values)
		}
	})
}
