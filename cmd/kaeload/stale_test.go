package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
)

// TestStaleServerReusePort: an nginx kaeload did not start holds the
// target's port with SO_REUSEPORT, so the one kaeload starts would bind
// beside it and the kernel would split the load between them. The variant
// is NOT MEASURED, naming the stale server's PID, and no window is kept.
func TestStaleServerReusePort(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	reuse := func(dir string) {
		conf := filepath.Join(dir, "nginx.conf")
		b, err := os.ReadFile(conf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(conf, []byte(strings.Replace(string(b), " ssl;", " ssl reuseport;", 1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	staleDir, staleStart, staleStop := nginxDir(t, addr)
	reuse(staleDir)
	if out, err := exec.Command("sh", "-c", staleStart).CombinedOutput(); err != nil {
		t.Fatalf("stale nginx: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("sh", "-c", staleStop).Run() })
	stalePID := pidOf(staleDir)
	dir, start, stop := nginxDir(t, addr)
	reuse(dir)
	scenario := writeScenario(t, fmt.Sprintf(`name: stale
target: {url: "https://%[1]s/"}
load: {connection: close, warmup: 100ms, duration: 300ms, groups: [{connections: 2}]}
server: {start: %[2]q, stop: %[3]q, ready: {tls: %[1]q, timeout: 10s}}
`, addr, start, stop))
	run := filepath.Join(t.TempDir(), "run")
	out, errOut, code := kaeload(t, "run", scenario, "-o", run, "--progress", "off")
	want := "also held by nginx (pid " + strconv.Itoa(stalePID) + "), which kaeload did not start"
	if code != 3 || !strings.Contains(out+errOut, want) {
		t.Fatalf("exit %d, want 3 and %q:\n%s\n%s", code, want, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(run, "run.json")); err == nil {
		r, err := readRun(run)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range r.Variants {
			if len(v.Reps) > 0 {
				t.Errorf("variant %s kept %d windows measured beside a stale server", v.Name, len(v.Reps))
			}
		}
	}
}
