package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpeedStreams: kaeload speed reads its input line by line. 20 MB of
// random bytes on standard input are refused with the parser's error
// while the process's peak RSS stays under 64 MB (reading it whole took
// 4.6 times the input).
func TestSpeedStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "speed", "-")
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	cmd.Stdin = io.LimitReader(randReader{rand.NewChaCha8([32]byte{1})}, 20<<20)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err == nil || !strings.Contains(errb.String(), "no speed results found") {
		t.Fatalf("speed on random bytes: %v\n%s", err, errb.String())
	}
	if rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss; rss > 64<<10 {
		t.Errorf("peak RSS %d KiB reading 20 MB, want under 64 MiB", rss)
	}
}

type randReader struct{ *rand.ChaCha8 }

func (r randReader) Read(p []byte) (int, error) { return r.ChaCha8.Read(p) }
