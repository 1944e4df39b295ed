package cpustat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kaeload/kaeload/pinning"
)

func TestHostFacts(t *testing.T) {
	h, err := HostFacts()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", h)
	if name, _ := os.Hostname(); h.Hostname != name {
		t.Errorf("Hostname = %q, want %q", h.Hostname, name)
	}
	if h.OS != runtime.GOOS {
		t.Errorf("OS = %q, want %q", h.OS, runtime.GOOS)
	}
	online, _ := pinning.Online()
	if h.LogicalCPUs < len(online) {
		t.Errorf("LogicalCPUs = %d, fewer than the %d this process may use", h.LogicalCPUs, len(online))
	}
	if h.PhysicalCores < 1 || h.PhysicalCores > h.LogicalCPUs {
		t.Errorf("PhysicalCores = %d, want 1..%d", h.PhysicalCores, h.LogicalCPUs)
	}
	if h.MemoryBytes < 64<<20 {
		t.Errorf("MemoryBytes = %d, want a real amount", h.MemoryBytes)
	}
	if runtime.GOOS == "linux" {
		if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
			if want := string(b[:len(b)-1]); h.Kernel != want {
				t.Errorf("Kernel = %q, want %q", h.Kernel, want)
			}
		}
	}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"hostname", "os", "arch", "logical_cpus", "memory_bytes"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON %s lacks %q", b, key)
		}
	}
}

func TestNUMANodes(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"node0", "node1", "node12", "nodeX", "possible", "has_cpu"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := numaNodes(dir), 3; got != want {
		t.Errorf("numaNodes = %d, want %d", got, want)
	}
	if got, want := numaNodes(filepath.Join(dir, "missing")), 0; got != want {
		t.Errorf("numaNodes of a missing dir = %d, want %d", got, want)
	}
}
