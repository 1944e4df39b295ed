package cpustat

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Host describes the machine a run measured on, for run.json; a number is 0 when unknown.
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
	read := func(what string, err error) bool {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
		return err == nil
	}
	if info, err := host.Info(); read("host info", err) {
		h.Hostname, h.OS, h.Kernel = info.Hostname, info.OS, info.KernelVersion
		h.Platform = strings.TrimSpace(info.Platform + " " + info.PlatformVersion)
		h.Arch = cmp.Or(info.KernelArch, h.Arch)
	}
	if h.Hostname == "" {
		h.Hostname, _ = os.Hostname()
	}
	if infos, err := cpu.Info(); read("cpu info", err) && len(infos) > 0 {
		h.CPUModel, h.CPUMHz = strings.TrimSpace(infos[0].ModelName), infos[0].Mhz
	}
	if n, err := cpu.Counts(true); read("logical CPU count", err) && n > 0 {
		h.LogicalCPUs = n
	}
	if n, err := cpu.Counts(false); read("physical core count", err) {
		h.PhysicalCores = n
	}
	if vm, err := mem.VirtualMemory(); read("memory", err) {
		h.MemoryBytes = vm.Total
	}
	h.NUMANodes = numaNodes("/sys/devices/system/node")
	return h, errors.Join(errs...)
}

// numaNodes counts the nodeN directories under dir.
func numaNodes(dir string) int {
	matches, _ := filepath.Glob(filepath.Join(dir, "node[0-9]*"))
	return len(slices.DeleteFunc(matches, func(m string) bool {
		_, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(m), "node"))
		return err != nil
	}))
}
