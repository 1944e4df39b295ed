package cpustat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
)

// UserHZ is the unit of /proc/stat's ticks: USER_HZ, 100 on every Linux
// architecture kaeload targets.
const UserHZ = 100

// maxCPU bounds CPU numbers read from text, as pinning does.
const maxCPU = 1 << 16

// Times is the cumulative time one CPU has spent busy and idle since boot, in seconds.
type Times struct {
	CPU int
	// Busy is user + nice + system + irq + softirq + steal (guest time
	// is inside user and nice); Idle is idle + iowait.
	Busy, Idle float64
	// IRQ is irq + softirq: Busy's part handling interrupts (the kernel's
	// network work among them), which no process's time includes.
	IRQ float64
}

// newTimes sums the columns of /proc/stat, in seconds, into CPU's Times.
func newTimes(cpu int, user, nice, system, idle, iowait, irq, softirq, steal float64) Times {
	return Times{CPU: cpu, Busy: user + nice + system + irq + softirq + steal, Idle: idle + iowait, IRQ: irq + softirq}
}

// Sample is the cumulative times of a set of CPUs at one instant, ascending by CPU number.
type Sample struct {
	Times []Times
}

// CPUs returns the CPUs in the sample.
func (s Sample) CPUs() pinning.Set {
	set := make(pinning.Set, len(s.Times))
	for i, t := range s.Times {
		set[i] = t.CPU
	}
	return set
}

// Select returns the part of s for cpus; an empty set selects every CPU.
// A CPU missing from s is an error.
func (s Sample) Select(cpus pinning.Set) (Sample, error) {
	if len(cpus) == 0 {
		return s, nil
	}
	out := Sample{Times: make([]Times, 0, len(cpus))}
	for _, c := range cpus {
		i, ok := slices.BinarySearchFunc(s.Times, c, byCPU)
		if !ok {
			return Sample{}, fmt.Errorf("select CPUs %s: CPU %d is not in the sample (it has %s)", cpus, c, s.CPUs())
		}
		out.Times = append(out.Times, s.Times[i])
	}
	return out, nil
}

// SampleCPUs reads the cumulative times of cpus (every CPU when empty) from this machine.
func SampleCPUs(cpus pinning.Set) (Sample, error) {
	stats, err := cpu.Times(true)
	if err != nil {
		return Sample{}, fmt.Errorf("sample CPU times: %w", err)
	}
	s := Sample{Times: make([]Times, 0, len(stats))}
	for _, st := range stats {
		n, err := strconv.Atoi(strings.TrimPrefix(st.CPU, "cpu"))
		if err != nil {
			return Sample{}, fmt.Errorf("sample CPU times: unexpected CPU name %q", st.CPU)
		}
		s.Times = append(s.Times, newTimes(n, st.User, st.Nice, st.System, st.Idle, st.Iowait, st.Irq, st.Softirq, st.Steal))
	}
	slices.SortFunc(s.Times, func(a, b Times) int { return a.CPU - b.CPU })
	return s.Select(cpus)
}

// Usage returns the CPU time used between a and b by the CPUs in both; Busy
// is Seconds / (window × CPUs), or busy / (busy + idle) when window <= 0.
func (a Sample) Usage(b Sample, window time.Duration) results.CPUUsage {
	var cpus pinning.Set
	var per []results.CPUTime
	var busy, idle, irq float64
	for _, ta := range a.Times {
		j, ok := slices.BinarySearchFunc(b.Times, ta.CPU, byCPU)
		if !ok {
			continue
		}
		tb := b.Times[j]
		cpus = append(cpus, ta.CPU)
		d := max(tb.Busy-ta.Busy, 0)
		busy += d
		idle += max(tb.Idle-ta.Idle, 0)
		irq += min(max(tb.IRQ-ta.IRQ, 0), d)
		per = append(per, results.CPUTime{CPU: ta.CPU, Seconds: d})
	}
	u := results.CPUUsage{CPUs: cpus.String(), Seconds: busy, IRQ: irq, PerCPU: per}
	switch {
	case len(cpus) == 0:
	case window > 0:
		u.Busy = clamp01(busy / (window.Seconds() * float64(len(cpus))))
	case busy+idle > 0:
		u.Busy = clamp01(busy / (busy + idle))
	}
	return u
}

func byCPU(t Times, cpu int) int { return t.CPU - cpu }

func clamp01(f float64) float64 {
	return min(max(f, 0), 1)
}

// ParseProcStat reads the per-CPU lines of /proc/stat text, such as a
// server's read over ssh; fields an older kernel lacks count as 0.
func ParseProcStat(text string) (Sample, error) {
	var s Sample
	for lineNo, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		n, err := strconv.Atoi(f[0][3:])
		if err != nil || n < 0 || n >= maxCPU || f[0][3] == '+' {
			return Sample{}, fmt.Errorf("parse /proc/stat line %d: %q is not a CPU name (want cpuN)", lineNo+1, f[0])
		}
		if len(f) < 5 {
			return Sample{}, fmt.Errorf("parse /proc/stat line %d: %s has %d fields, want at least 4 (user nice system idle)", lineNo+1, f[0], len(f)-1)
		}
		var v [8]float64 // user nice system idle iowait irq softirq steal
		for i := 1; i < len(f) && i <= len(v); i++ {
			ticks, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return Sample{}, fmt.Errorf("parse /proc/stat line %d: %s field %d: %q is not a tick count", lineNo+1, f[0], i, f[i])
			}
			v[i-1] = float64(ticks) / UserHZ
		}
		s.Times = append(s.Times, newTimes(n, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]))
	}
	if len(s.Times) == 0 {
		return Sample{}, fmt.Errorf("parse /proc/stat: no per-CPU lines (cpu0 …)")
	}
	slices.SortFunc(s.Times, func(a, b Times) int { return a.CPU - b.CPU })
	for i := 1; i < len(s.Times); i++ {
		if s.Times[i].CPU == s.Times[i-1].CPU {
			return Sample{}, fmt.Errorf("parse /proc/stat: cpu%d appears twice", s.Times[i].CPU)
		}
	}
	return s, nil
}
