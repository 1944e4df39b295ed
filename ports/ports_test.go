package ports

import (
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results/notes"
)

// defaults are a stock kernel's settings: 32768-60999, tcp_tw_reuse=2.
var defaults = Limits{Low: 32768, High: 60999, TWReuse: TWReuseLoopback, FinTimeout: 60 * time.Second}

func TestParseLimits(t *testing.T) {
	for _, tc := range []struct {
		name            string
		rng, reuse, fin string
		want            Limits
		wantErr         []string // substrings of the error, nil = success
	}{
		{"as the kernel writes them", "32768\t60999\n", "2\n", "60\n", defaults, nil},
		{"odd white space", "  1024 \t  65535 \r\n", " 1 ", "\t30\n\n", Limits{Low: 1024, High: 65535, TWReuse: 1, FinTimeout: 30 * time.Second}, nil},
		{"one port", "40000 40000", "0", "0", Limits{Low: 40000, High: 40000, FinTimeout: 0}, nil},
		{"empty files", "", "", "", Limits{}, []string{"ip_local_port_range", "tcp_tw_reuse", "tcp_fin_timeout"}},
		{"one port number", "32768\n", "2", "60", Limits{}, []string{`ip_local_port_range: "32768": want two port numbers`}},
		{"three numbers", "1 2 3", "2", "60", Limits{}, []string{"ip_local_port_range"}},
		{"words", "low high", "2", "60", Limits{}, []string{"want two port numbers"}},
		{"reversed", "60999 32768", "2", "60", Limits{}, []string{"want 1 <= low <= high <= 65535"}},
		{"port 0", "0 100", "2", "60", Limits{}, []string{"want 1 <= low"}},
		{"past 65535", "1024 65536", "2", "60", Limits{}, []string{"high <= 65535"}},
		{"tw_reuse 3", "32768 60999", "3", "60", Limits{}, []string{`tcp_tw_reuse: "3": want 0, 1 or 2`}},
		{"tw_reuse -1", "32768 60999", "-1", "60", Limits{}, []string{"tcp_tw_reuse"}},
		{"tw_reuse two values", "32768 60999", "1 2", "60", Limits{}, []string{"tcp_tw_reuse"}},
		{"fin_timeout negative", "32768 60999", "2", "-5", Limits{}, []string{`tcp_fin_timeout: "-5"`}},
		{"fin_timeout garbage", "32768 60999", "2", "\x00\xff", Limits{}, []string{"tcp_fin_timeout"}},
		{"every one wrong, every one named", "x", "y", "z", Limits{}, []string{"ip_local_port_range", "tcp_tw_reuse", "tcp_fin_timeout"}},
	} {
		got, err := ParseLimits(tc.rng, tc.reuse, tc.fin)
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		if tc.wantErr == nil {
			if err != nil {
				t.Errorf("%s: error %v, want none", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error, want one saying %q", tc.name, tc.wantErr)
			continue
		}
		for _, w := range tc.wantErr {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

func TestLimitsArithmetic(t *testing.T) {
	off := defaults
	off.TWReuse = TWReuseOff
	on := defaults
	on.TWReuse = TWReuseOn
	for _, tc := range []struct {
		name       string
		l          Limits
		loopback   bool
		concurrent int
		ports      int
		reuses     bool
		maxRate    float64
	}{
		// 28232 ports / 60 s = 470.53 new connections per second.
		{"default, remote", defaults, false, 0, 28232, false, 28232.0 / 60},
		{"default, loopback: tw_reuse=2 applies", defaults, true, 0, 28232, true, 28232},
		{"reuse off, loopback", off, true, 0, 28232, false, 28232.0 / 60},
		{"reuse on, remote", on, false, 0, 28232, true, 28232},
		{"open connections take ports", defaults, false, 232, 28232, false, 28000.0 / 60},
		{"every port open", defaults, false, 28232, 28232, false, 0},
		{"more open than ports", defaults, false, 30000, 28232, false, 0},
		{"widest range", Limits{Low: 1024, High: 65535}, false, 0, 64512, false, 64512.0 / 60},
		{"unknown", Limits{}, false, 0, 0, false, 0},
	} {
		if got, want := tc.l.Ports(), tc.ports; got != want {
			t.Errorf("%s: Ports = %d, want %d", tc.name, got, want)
		}
		if got, want := tc.l.Reuses(tc.loopback), tc.reuses; got != want {
			t.Errorf("%s: Reuses(loopback %v) = %v, want %v", tc.name, tc.loopback, got, want)
		}
		if got, want := tc.l.MaxRate(tc.loopback, tc.concurrent), tc.maxRate; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: MaxRate(loopback %v, %d open) = %.3f, want %.3f", tc.name, tc.loopback, tc.concurrent, got, want)
		}
	}
	if got, want := (Limits{}).Known(), false; got != want {
		t.Errorf("Limits{}.Known() = %v, want %v", got, want)
	}
}

func TestParseTimeWait(t *testing.T) {
	const live = "sockets: used 9\nTCP: inuse 1 orphan 0 tw 0 alloc 1 mem 194\nUDP: inuse 0 mem 0\nUDPLITE: inuse 0\nRAW: inuse 0\nFRAG: inuse 0 memory 0\n"
	const busy = "sockets: used 3321\nTCP: inuse 2206 orphan 13 tw 27994 alloc 2215 mem 9061\nUDP: inuse 9 mem 12\nUDPLITE: inuse 0\nRAW: inuse 0\nFRAG: inuse 0 memory 0\n"
	const six = "TCP6: inuse 4\nUDP6: inuse 2\nUDPLITE6: inuse 0\nRAW6: inuse 0\nFRAG6: inuse 0 memory 0\n"
	for _, tc := range []struct {
		name, text string
		want       int
		wantErr    string // "" = success
	}{
		{"idle machine", live, 0, ""},
		{"load generator after a run", busy, 27994, ""},
		{"sockstat and sockstat6 together", busy + six, 27994, ""},
		{"tabs, CRLF and indentation", "sockets: used 9\r\n\t TCP:\tinuse 1  orphan 0\ttw 17 alloc 1 mem 194 \r\n", 17, ""},
		{"tw first, no trailing newline", "TCP: tw 5 inuse 1", 5, ""},
		{"fields a future kernel adds", "TCP: inuse 1 orphan 0 tw 3 alloc 1 mem 194 new 8\n", 3, ""},
		{"sockstat6 alone", six, 0, "no TCP line (sockstat6 has none"},
		{"empty", "", 0, "no TCP line"},
		{"no tw field", "TCP: inuse 1 orphan 0 alloc 1 mem 194\n", 0, "no tw count"},
		{"TCP: alone", "TCP:\n", 0, "no tw count"},
		{"odd fields", "TCP: inuse 1 orphan 0 tw\n", 0, "not name-count pairs"},
		{"negative count", "TCP: inuse 1 tw -4\n", 0, `TCP tw "-4" is not a count`},
		{"word for a count", "TCP: inuse many tw 4\n", 0, `TCP inuse "many" is not a count`},
		{"overflow", "TCP: tw 99999999999999999999999\n", 0, "is not a count"},
		{"two TCP lines", "TCP: tw 1\nTCP: tw 2\n", 0, "two TCP lines"},
		{"binary garbage", "\x00\xff\xfeTCP:\x00 tw", 0, "no TCP line"},
	} {
		got, err := ParseTimeWait(tc.text)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: error %v, want %d", tc.name, err, tc.want)
		case tc.wantErr == "" && got != tc.want:
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %d, error %v, want an error containing %q", tc.name, got, err, tc.wantErr)
		}
	}
}

func TestWarnings(t *testing.T) {
	off := defaults
	off.TWReuse = TWReuseOff
	on := defaults
	on.TWReuse = TWReuseOn
	const (
		reuse = "sysctl -w net.ipv4.tcp_tw_reuse=1"
		widen = "sysctl -w net.ipv4.ip_local_port_range='1024 65535'"
	)
	for _, tc := range []struct {
		name string
		l    Limits
		ld   Load
		want []string // substrings of the one warning; nil = no warning
	}{
		// A default machine and a small test: nothing to say.
		{"200 on loopback, closed loop", defaults, Load{Connections: 200, Loopback: true, Close: true}, nil},
		{"200 on loopback at 5000/s", defaults, Load{Connections: 200, Loopback: true, Close: true, Rate: 5000}, nil},
		{"keep-alive, remote, closed loop", defaults, Load{Connections: 200}, nil},
		{"unknown limits", Limits{}, Load{Connections: 1e6, Close: true, Rate: 1e6}, nil},
		{"reuse on, remote, closed loop", on, Load{Connections: 200, Close: true}, nil},
		// A closed loop's rate is unknown before the run, and who closes
		// first is the server's choice: nothing before the run
		// (MeasuredWarning judges the window's aftermath).
		{"remote, closed loop, tw_reuse=2", defaults, Load{Connections: 200, Close: true}, nil},
		{"loopback, closed loop, tw_reuse=0", off, Load{Connections: 200, Loopback: true, Close: true}, nil},
		// A known rate: (28232 − 32) / 60 = 470 per second exactly.
		{"at the TIME_WAIT limit", defaults, Load{Connections: 32, Close: true, Rate: 470}, nil},
		{"just above the TIME_WAIT limit", defaults, Load{Connections: 32, Close: true, Rate: 470.01},
			[]string{"at 470 new connections/s", "28200 beside 32 open connections (enough for 470/s)", "run: " + reuse, "(or " + widen + ": enough for 1074/s)"}},
		{"the limit is per destination", defaults, Load{Connections: 64, Destinations: 2, Close: true, Rate: 940}, nil},
		{"above it per destination", defaults, Load{Connections: 64, Destinations: 2, Close: true, Rate: 941},
			[]string{"(470 per destination)", "to each of 2 destinations"}},
		// 1000/s for 60 s = 60000 ports: after 28032 / 1000 = 28 s.
		{"1000/s: widening is enough too", defaults, Load{Connections: 200, Close: true, Rate: 1000},
			[]string{"that holds 60000 ports to the destination at once", "after about 28 s", "(or " + widen}},
		{"5000/s: only reuse helps", defaults, Load{Connections: 200, Close: true, Rate: 5000},
			[]string{"that holds 300000 ports", "after about 5.6 s", "run: " + reuse}},
		{"keep-alive at any rate", defaults, Load{Connections: 200, Rate: 1e6}, nil},
		// With reuse a port is free again after about 1 s: 28200 per second.
		{"reuse on, at its limit", on, Load{Connections: 32, Close: true, Rate: 28200}, nil},
		{"reuse on, above it", on, Load{Connections: 32, Close: true, Rate: 28201},
			[]string{"about 1 s in TIME_WAIT before tcp_tw_reuse frees it", "run: " + widen + " (enough for 64480/s)"}},
		{"reuse on, widest range, above it", Limits{Low: 1024, High: 65535, TWReuse: TWReuseOn}, Load{Connections: 32, Close: true, Rate: 70000},
			[]string{"spread the load over more server addresses"}},
		// Open connections: one port each per destination.
		{"every port open", defaults, Load{Connections: 28232}, nil},
		{"one connection too many", defaults, Load{Connections: 28233},
			[]string{"28233 connections at once to the destination need as many client ports", "has 28232 ports", "EADDRNOTAVAIL", "run: " + widen}},
		{"spread over two destinations", defaults, Load{Connections: 56464, Destinations: 2}, nil},
		{"one too many over two", defaults, Load{Connections: 56465, Destinations: 2, Close: true},
			[]string{"28233 connections at once to each of 2 destinations"}},
		{"more than any range", defaults, Load{Connections: 64513},
			[]string{"no port range is that wide"}},
	} {
		var got []string
		for _, s := range Warnings(tc.l, tc.ld) {
			got = append(got, words(s))
		}
		if tc.want == nil {
			if len(got) != 0 {
				t.Errorf("%s: got %q, want no warning", tc.name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: got %d warnings %q, want one containing %q", tc.name, len(got), got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s: got %q, want it to contain %q", tc.name, got[0], w)
			}
		}
	}
}

func TestExhausted(t *testing.T) {
	dial := func(errno syscall.Errno) error {
		return &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", errno)}
	}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"connect: cannot assign requested address", dial(syscall.EADDRNOTAVAIL), true},
		{"wrapped again", fmt.Errorf("request 17: %w", dial(syscall.EADDRNOTAVAIL)), true},
		{"connection refused", dial(syscall.ECONNREFUSED), false},
		{"address in use", dial(syscall.EADDRINUSE), false},
		{"timeout", errors.New("i/o timeout"), false},
		{"nil", nil, false},
	} {
		if got := Exhausted(tc.err); got != tc.want {
			t.Errorf("%s: Exhausted(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// FuzzParseTimeWait: any text parses or fails without a panic; a count is
// never negative, and other protocols' lines around the TCP line change
// nothing.
func FuzzParseTimeWait(f *testing.F) {
	f.Add("TCP: inuse 1 orphan 0 tw 0 alloc 1 mem 194\n")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := ParseTimeWait(text)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseTimeWait(%q) = %d, a negative count", text, n)
		}
		m, err := ParseTimeWait("sockets: used 1\n" + text + "\nUDP: inuse 2 mem 0\nTCP6: inuse 3\n")
		if err != nil || m != n {
			t.Fatalf("ParseTimeWait(%q) = %d, but with other protocols' lines around it %d, %v", text, n, m, err)
		}
	})
}

// TestMeasuredWarning judges a window's aftermath: the veth run
// (248 client TIME_WAIT sockets, no address errors) says nothing; a
// tenth of the free ports in TIME_WAIT, or one connect without a port,
// warns, with reuse as the fix where the kernel does not reuse for the
// destination and a wider range where it does.
func TestMeasuredWarning(t *testing.T) {
	const (
		reuse = "sysctl -w net.ipv4.tcp_tw_reuse=1"
		widen = "sysctl -w net.ipv4.ip_local_port_range='1024 65535'"
	)
	remote := Load{Connections: 200, Close: true}
	loop := Load{Connections: 200, Close: true, Loopback: true}
	// defaults: 32768-60999 = 28232 ports, 28032 beside 200 connections; a tenth is 2803.2.
	for _, tc := range []struct {
		name     string
		l        Limits
		ld       Load
		tw       int
		portErrs uint64
		want     []string // nil: no warning
	}{
		{"the server closed first (veth, 248)", defaults, remote, 248, 0, nil},
		{"none", defaults, remote, 0, 0, nil},
		{"just below a tenth", defaults, remote, 2803, 0, nil},
		{"a tenth", defaults, remote, 2804, 0, []string{"held 2804 ports in TIME_WAIT", "10 % of the 28032 ports", "32768-60999", "run: " + reuse}},
		{"loopback reuses: widen", defaults, loop, 20000, 0, []string{"71 %", "run: " + widen}},
		{"a port error", defaults, remote, 10, 1, []string{"1 connect failed with EADDRNOTAVAIL", "run: " + reuse}},
		{"unknown limits", Limits{}, remote, 1e6, 5, nil},
	} {
		var got string
		if s := MeasuredWarning(tc.l, tc.ld, tc.tw, tc.portErrs); s != nil {
			got = words(*s)
		}
		if tc.want == nil && got != "" || tc.want != nil && got == "" {
			t.Errorf("%s: got %q, want %v", tc.name, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: got %q, want it to contain %q", tc.name, got, w)
			}
		}
	}
}

// words is s in results/notes' words; it fails the test when notes has
// none for its kind.
func words(s Shortage) string {
	w := notes.Note{Code: notes.Code(s.Kind), Args: s.Args}.String()
	if w == s.Kind {
		panic("results/notes has no words for " + s.Kind)
	}
	return w
}
