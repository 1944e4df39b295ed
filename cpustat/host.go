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

// Host describes the machine a run measured on, for run.json; a number
// is 0 when unknown.
type Host struct {
	Hostname      string  `json:"hostname"`
	OS            string  `json:"os"`                 // runtime.GOOS form
	Platform      string  `json:"platform,omitempty"` // "debian 12.7"
	Kernel        string  `json:"kernel,omitempty"`   // "6.1.0-26-amd64"
	Arch          string  `json:"arch"`               // as `uname -m` prints it
	CPUModel      string  `json:"cpu_model,omitempty"`
	CPUMHz        float64 `json:"cpu_mhz,omitempty"` // the first CPU's nominal clock
	PhysicalCores int     `json:"physical_cores,omitempty"`
	LogicalCPUs   int     `json:"logical_cpus"`
	NUMANodes     int     `json:"numa_nodes,omitempty"`
	MemoryBytes   uint64  `json:"memory_bytes,omitempty"`
}

// HostFacts gathers what it can about this machine; the error joins what
// could not be read, so a caller may record a partial Host and warn.
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
