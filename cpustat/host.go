package cpustat

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Host describes the machine a run measured on, for run.json.
type Host struct {
	// Hostname is the machine's host name.
	Hostname string `json:"hostname"`
	// OS is the operating system (runtime.GOOS form, e.g. "linux").
	OS string `json:"os"`
	// Platform is the distribution and its version, e.g. "debian 12.7".
	Platform string `json:"platform,omitempty"`
	// Kernel is the kernel release, e.g. "6.1.0-26-amd64".
	Kernel string `json:"kernel,omitempty"`
	// Arch is the machine architecture as `uname -m` prints it.
	Arch string `json:"arch"`
	// CPUModel is the processor model name of the first CPU.
	CPUModel string `json:"cpu_model,omitempty"`
	// CPUMHz is the nominal clock of the first CPU, 0 when unknown.
	CPUMHz float64 `json:"cpu_mhz,omitempty"`
	// PhysicalCores is the number of physical cores, 0 when unknown.
	PhysicalCores int `json:"physical_cores,omitempty"`
	// LogicalCPUs is the number of logical CPUs (hardware threads).
	LogicalCPUs int `json:"logical_cpus"`
	// NUMANodes is the number of NUMA nodes under /sys/devices/system/node,
	// 0 when the system does not say.
	NUMANodes int `json:"numa_nodes,omitempty"`
	// MemoryBytes is the total physical memory.
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
}

// HostFacts gathers the facts about this machine. It fills in everything it
// can; the error joins whatever could not be read, so a caller may record
// a partial Host and warn.
func HostFacts() (Host, error) {
	h := Host{OS: runtime.GOOS, Arch: runtime.GOARCH, LogicalCPUs: runtime.NumCPU()}
	var errs []error
	if info, err := host.Info(); err != nil {
		errs = append(errs, fmt.Errorf("host info: %w", err))
	} else {
		h.Hostname = info.Hostname
		h.OS = info.OS
		h.Platform = strings.TrimSpace(info.Platform + " " + info.PlatformVersion)
		h.Kernel = info.KernelVersion
		if info.KernelArch != "" {
			h.Arch = info.KernelArch
		}
	}
	if h.Hostname == "" {
		h.Hostname, _ = os.Hostname()
	}
	if infos, err := cpu.Info(); err != nil {
		errs = append(errs, fmt.Errorf("cpu info: %w", err))
	} else if len(infos) > 0 {
		h.CPUModel = strings.TrimSpace(infos[0].ModelName)
		h.CPUMHz = infos[0].Mhz
	}
	if n, err := cpu.Counts(true); err == nil && n > 0 {
		h.LogicalCPUs = n
	} else if err != nil {
		errs = append(errs, fmt.Errorf("logical CPU count: %w", err))
	}
	if n, err := cpu.Counts(false); err == nil {
		h.PhysicalCores = n
	} else {
		errs = append(errs, fmt.Errorf("physical core count: %w", err))
	}
	if vm, err := mem.VirtualMemory(); err != nil {
		errs = append(errs, fmt.Errorf("memory: %w", err))
	} else {
		h.MemoryBytes = vm.Total
	}
	h.NUMANodes = numaNodes("/sys/devices/system/node")
	return h, errors.Join(errs...)
}

// numaNodes counts the nodeN directories under dir.
func numaNodes(dir string) int {
	matches, _ := filepath.Glob(filepath.Join(dir, "node*"))
	n := 0
	for _, m := range matches {
		if _, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(m), "node")); err == nil {
			n++
		}
	}
	return n
}
