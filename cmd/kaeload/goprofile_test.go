package main

import (
	"bufio"
	"context"
	"flag"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results/analysis"
)

// TestServeProfileGoCrypto is issue 40's must-show 6: --server-profile
// on kaeload serve --cert rsa2048 (a child process) gives a crypto share,
// from its crypto/... functions alone (no crypto library), within 3
// points of what perf report --sort sym sums for those symbols in the
// same perf.data (kept with KAELOAD_PERF_DATA). Both read the same
// samples, so a busy machine changes both alike. The server is built
// here: go test links its binary without a symbol table (-s), and perf
// then names no function.
func TestServeProfileGoCrypto(t *testing.T) {
	needPerf(t)
	goCmd := testkit.NeedCommand(t, "go", "Go")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "kaeload")
	if b, err := exec.CommandContext(ctx, goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--cert", "rsa2048")
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	line, _ := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`https://\S+/`).FindString(line)
	if m == "" {
		t.Fatalf("kaeload serve printed %q, want its URL", line)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	data := filepath.Join(t.TempDir(), "perf.data")
	t.Setenv("KAELOAD_PERF_DATA", data)
	f, fs := &runFlags{}, flag.NewFlagSet("run", flag.ContinueOnError)
	f.register(fs)
	pos, err := parse(fs, []string{m, "--server-profile", "-d", "1s", "--warmup", "200ms", "-c", "4", "--no-save", "--progress", "off"})
	if err == nil {
		err = f.check(fs, pos)
	}
	if err != nil {
		t.Fatal(err)
	}
	in, err := f.input(io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	r, log := runPlan(t, in.plan)
	p := analysis.Analyze(r).Profile
	if p == nil || len(p.Variants) != 1 || !p.Variants[0].Available() {
		t.Fatalf("no profile: %+v\n%s", p, log)
	}
	v := p.Variants[0]
	want := perfReportCrypto(t, data)
	t.Logf("%d samples: crypto share %.1f %%, bound %.2f×; perf report sums %.1f %% for crypto/...; top %+v", v.Samples, v.CryptoShare*100, v.Bound, want, v.Functions)
	if v.CryptoShare < 0.3 {
		t.Errorf("crypto share %.1f %%: an RSA-2048 server spends most of its CPU in crypto/...", v.CryptoShare*100)
	}
	if math.Abs(v.CryptoShare*100-want) > 3 {
		t.Errorf("crypto share %.1f %%, perf report's crypto/... symbols %.1f %%: want within 3 points", v.CryptoShare*100, want)
	}
	if math.Abs(v.Bound-1/(1-v.CryptoShare)) > 1e-9 {
		t.Errorf("bound %v, want 1/(1 − %v)", v.Bound, v.CryptoShare)
	}
}

// perfReportCrypto sums the self overhead perf report --sort sym gives
// the symbols of Go's crypto packages (crypto, crypto/..., and
// golang.org/x/crypto/... also as the standard library's vendor/ copy).
func perfReportCrypto(t *testing.T, data string) float64 {
	t.Helper()
	b, err := exec.Command("perf", "report", "-i", data, "--stdio", "--sort", "sym", "--no-children", "-g", "none", "--percent-limit", "0").Output()
	if err != nil {
		t.Fatalf("perf report: %v", err)
	}
	re := regexp.MustCompile(`^\s*([0-9.]+)%\s+\[.\]\s+(\S+)`)
	sum := 0.0
	for _, l := range strings.Split(string(b), "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		sym := strings.TrimPrefix(m[2], "vendor/")
		if strings.HasPrefix(sym, "crypto/") || strings.HasPrefix(sym, "crypto.") || strings.HasPrefix(sym, "golang.org/x/crypto/") {
			pct, _ := strconv.ParseFloat(m[1], 64)
			sum += pct
		}
	}
	return sum
}
