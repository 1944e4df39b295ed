package cpustat

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

func TestSampleCPUsSets(t *testing.T) {
	online, err := pinning.Online()
	if err != nil {
		t.Fatal(err)
	}
	all, err := SampleCPUs(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range online {
		if _, err := all.Select(pinning.Set{c}); err != nil {
			t.Errorf("sample of all CPUs lacks online CPU %d: %v", c, err)
		}
	}
	if _, err := SampleCPUs(pinning.Set{maxCPU - 1}); err == nil || !strings.Contains(err.Error(), "CPU 65535 is not in the sample") {
		t.Errorf("SampleCPUs(65535) error = %v, want one naming the missing CPU", err)
	}
}

// TestParseProcStatMatchesGopsutil reads /proc/stat by hand between two
// gopsutil samples: every counter must lie between them.
func TestParseProcStatMatchesGopsutil(t *testing.T) {
	before, err := SampleCPUs(nil)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Skip("no /proc/stat:", err)
	}
	mid, err := ParseProcStat(string(text))
	if err != nil {
		t.Fatal(err)
	}
	after, err := SampleCPUs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mid.CPUs().String(), before.CPUs().String(); got != want {
		t.Fatalf("parsed CPUs %q, gopsutil %q", got, want)
	}
	const eps = 1e-6
	for i, m := range mid.Times {
		lo, hi := before.Times[i], after.Times[i]
		if m.Busy < lo.Busy-eps || m.Busy > hi.Busy+eps || m.Idle < lo.Idle-eps || m.Idle > hi.Idle+eps {
			t.Errorf("cpu%d parsed %+v, not between gopsutil %+v and %+v", m.CPU, m, lo, hi)
		}
	}
}

func TestParseProcStatFiles(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []Times
	}{
		{"testdata/proc-stat-arm64-4cpu.txt", []Times{
			// user nice system irq softirq steal / idle iowait, in 1/100 s
			// and irq + softirq apart.
			{CPU: 0, Busy: (1393280 + 32966 + 572056 + 0 + 17875 + 0) / 100.0, Idle: (13343292 + 6130) / 100.0, IRQ: (0 + 17875) / 100.0},
			{CPU: 1, Busy: (1335 + 12 + 148 + 5 + 1 + 2) / 100.0, Idle: (900 + 7) / 100.0, IRQ: (5 + 1) / 100.0},
			{CPU: 2, Busy: 2, Idle: 100.5}, // guest (30) is inside user already
			{CPU: 3},
		}},
	} {
		text, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseProcStat(string(text))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !sameTimes(s.Times, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, s.Times, tc.want)
		}
	}
	// The snapshot of this VM: two CPUs, the totals agree with the cpu line.
	text, err := os.ReadFile("testdata/proc-stat-vm-x86_64.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseProcStat(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.CPUs().String(), "0-1"; got != want {
		t.Errorf("snapshot CPUs = %q, want %q", got, want)
	}
	agg := strings.Fields(strings.SplitN(string(text), "\n", 2)[0])
	total, err := ParseProcStat("cpu0 " + strings.Join(agg[1:], " "))
	if err != nil {
		t.Fatal(err)
	}
	var busy, idle float64
	for _, c := range s.Times {
		busy += c.Busy
		idle += c.Idle
	}
	// Per-CPU lines are read at slightly different moments than the sum.
	if math.Abs(busy-total.Times[0].Busy) > 1 || math.Abs(idle-total.Times[0].Idle) > 1 {
		t.Errorf("per-CPU sum busy %.2f idle %.2f, aggregate line %+v", busy, idle, total.Times[0])
	}
}

func sameTimes(a, b []Times) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].CPU != b[i].CPU || math.Abs(a[i].Busy-b[i].Busy) > 1e-9 || math.Abs(a[i].Idle-b[i].Idle) > 1e-9 || math.Abs(a[i].IRQ-b[i].IRQ) > 1e-9 {
			return false
		}
	}
	return true
}

func TestParseProcStatHandMade(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []Times
		err        string
	}{
		{name: "old kernel four fields", text: "cpu  1 2 3 4\ncpu0 100 0 50 200\n",
			want: []Times{{CPU: 0, Busy: 1.5, Idle: 2}}},
		{name: "unsorted, no aggregate", text: "cpu1 100 0 0 0 0 0 0 0\ncpu0 0 0 0 100 100 0 0 0\n",
			want: []Times{{CPU: 0, Idle: 2}, {CPU: 1, Busy: 1}}},
		{name: "steal irq softirq count", text: "cpu0 0 0 0 0 0 100 200 300 0 0\n",
			want: []Times{{CPU: 0, Busy: 6, IRQ: 3}}},
		{name: "extra future fields ignored", text: "cpu0 1 1 1 1 1 1 1 1 1 1 99 99\n",
			want: []Times{{CPU: 0, Busy: 0.06, Idle: 0.02, IRQ: 0.02}}},
		{name: "CRLF and blank lines", text: "\r\n\r\ncpu0 100 0 0 100\r\n",
			want: []Times{{CPU: 0, Busy: 1, Idle: 1}}},
		{name: "empty", text: "", err: "no per-CPU lines"},
		{name: "aggregate only", text: "cpu  1 2 3 4 5 6 7 8 9 0\n", err: "no per-CPU lines"},
		{name: "bad name", text: "cpuX 1 2 3 4\n", err: `line 1: "cpuX" is not a CPU name`},
		{name: "signed name", text: "cpu+1 1 2 3 4\n", err: `"cpu+1" is not a CPU name`},
		{name: "huge CPU", text: "cpu70000 1 2 3 4\n", err: `"cpu70000" is not a CPU name`},
		{name: "short", text: "cpu0 1 2 3\n", err: "line 1: cpu0 has 3 fields, want at least 4"},
		{name: "negative", text: "cpu0 1 -2 3 4\n", err: `cpu0 field 2: "-2" is not a tick count`},
		{name: "duplicate", text: "cpu0 1 2 3 4\ncpu0 1 2 3 4\n", err: "cpu0 appears twice"},
	} {
		s, err := ParseProcStat(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error = %v, want one containing %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !sameTimes(s.Times, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, s.Times, tc.want)
		}
	}
}

func TestUsage(t *testing.T) {
	two := func(b0, i0, b1, i1 float64) Sample {
		return Sample{Times: []Times{{CPU: 0, Busy: b0, Idle: i0}, {CPU: 1, Busy: b1, Idle: i1}}}
	}
	for _, tc := range []struct {
		name   string
		a, b   Sample
		window time.Duration
		want   results.CPUUsage
	}{
		{"half busy", two(10, 10, 10, 10), two(11, 11, 10.5, 11.5), 2 * time.Second,
			results.CPUUsage{CPUs: "0-1", Seconds: 1.5, Busy: 0.375, PerCPU: []results.CPUTime{{CPU: 0, Seconds: 1}, {CPU: 1, Seconds: 0.5}}}},
		{"clamped to 1", two(0, 0, 0, 0), two(3, 0, 3, 0), 2 * time.Second,
			results.CPUUsage{CPUs: "0-1", Seconds: 6, Busy: 1}},
		{"counter went back", two(10, 0, 10, 0), two(5, 0, 11, 0), time.Second,
			results.CPUUsage{CPUs: "0-1", Seconds: 1, Busy: 0.5, PerCPU: []results.CPUTime{{CPU: 0, Seconds: 0}, {CPU: 1, Seconds: 1}}}},
		{"no window: kernel ratio", two(0, 0, 0, 0), two(1, 3, 0, 4), 0,
			results.CPUUsage{CPUs: "0-1", Seconds: 1, Busy: 0.125}},
		{"only common CPUs", Sample{Times: []Times{{CPU: 0}, {CPU: 2}}}, Sample{Times: []Times{{CPU: 1, Busy: 9}, {CPU: 2, Busy: 1}}}, time.Second,
			results.CPUUsage{CPUs: "2", Seconds: 1, Busy: 1, PerCPU: []results.CPUTime{{CPU: 2, Seconds: 1}}}},
		{"nothing in common", Sample{Times: []Times{{CPU: 0}}}, Sample{Times: []Times{{CPU: 1, Busy: 9}}}, time.Second,
			results.CPUUsage{}},
		{"interrupts apart, never more than the busy time", Sample{Times: []Times{{CPU: 0, Busy: 1, IRQ: 0.5}, {CPU: 1, Busy: 1, IRQ: 0.5}}},
			Sample{Times: []Times{{CPU: 0, Busy: 2, IRQ: 0.7}, {CPU: 1, Busy: 1.1, IRQ: 0.9}}}, time.Second,
			results.CPUUsage{CPUs: "0-1", Seconds: 1.1, Busy: 0.55, IRQ: 0.2 + 0.1}},
	} {
		got := tc.a.Usage(tc.b, tc.window)
		if got.CPUs != tc.want.CPUs || math.Abs(got.Seconds-tc.want.Seconds) > 1e-9 || math.Abs(got.Busy-tc.want.Busy) > 1e-9 ||
			math.Abs(got.IRQ-tc.want.IRQ) > 1e-9 ||
			(tc.want.PerCPU != nil && !slices.Equal(got.PerCPU, tc.want.PerCPU)) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// FuzzParseProcStat checks that any accepted text is a consistent sample.
func FuzzParseProcStat(f *testing.F) {
	for _, file := range []string{"testdata/proc-stat-vm-x86_64.txt", "testdata/proc-stat-arm64-4cpu.txt"} {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("cpu0 1 2 3 4\n")
	f.Add("cpu0 18446744073709551615 0 0 0\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseProcStat(text)
		if err != nil {
			return
		}
		if len(s.Times) == 0 {
			t.Fatal("accepted text with no CPUs")
		}
		for i, c := range s.Times {
			if i > 0 && c.CPU <= s.Times[i-1].CPU {
				t.Fatalf("CPUs not strictly ascending: %+v", s.Times)
			}
			if c.CPU < 0 || c.CPU >= maxCPU || !(c.Busy >= 0) || !(c.Idle >= 0) || math.IsInf(c.Busy, 0) || math.IsInf(c.Idle, 0) {
				t.Fatalf("bad entry %+v", c)
			}
		}
		u := s.Usage(s, time.Second)
		if u.Seconds != 0 || u.Busy != 0 || u.CPUs != s.CPUs().String() {
			t.Fatalf("usage of a sample against itself = %+v", u)
		}
		if _, err := pinning.Parse(u.CPUs); err != nil {
			t.Fatalf("CPUs %q is not a taskset list: %v", u.CPUs, err)
		}
	})
}
