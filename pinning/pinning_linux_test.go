//go:build linux

package pinning

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestStartPinsEveryThread starts a child pinned to one CPU and checks that
// its threads are all allowed exactly that CPU while the parent's mask is
// unchanged afterwards.
func TestStartPinsEveryThread(t *testing.T) {
	online, err := Online()
	if err != nil {
		t.Fatal(err)
	}
	before, err := Allowed("self")
	if err != nil {
		t.Fatal(err)
	}
	cpu := online[len(online)-1]
	cmd := exec.Command("sleep", "5")
	if err := Start(cmd, Set{cpu}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := strconv.Itoa(cmd.Process.Pid)
	tasks, err := os.ReadDir("/proc/" + pid + "/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		got, err := Allowed(pid + "/task/" + task.Name())
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != strconv.Itoa(cpu) {
			t.Errorf("thread %s allowed %s, want %d", task.Name(), got, cpu)
		}
	}
	// Every thread of this process keeps its mask (the locked thread was restored).
	time.Sleep(10 * time.Millisecond)
	after, err := Allowed("self")
	if err != nil {
		t.Fatal(err)
	}
	if after.String() != before.String() {
		t.Errorf("parent mask %s after Start, was %s", after, before)
	}
}

func TestStartRejectsMissingCPU(t *testing.T) {
	cmd := exec.Command("true")
	if err := Start(cmd, Set{maxCPU - 1}); err == nil {
		_ = cmd.Wait()
		t.Fatal("pinning to a CPU that does not exist succeeded")
	}
}

func TestNUMANode(t *testing.T) {
	if _, err := os.Stat("/sys/devices/system/node/node0"); err != nil {
		t.Skip("no NUMA information in /sys on this machine")
	}
	if got := NUMANode(0); got != 0 {
		t.Errorf("NUMANode(0) = %d, want 0 (node0 exists)", got)
	}
	if got := NUMANode(maxCPU); got != -1 {
		t.Errorf("NUMANode(%d) = %d, want -1", maxCPU, got)
	}
}
