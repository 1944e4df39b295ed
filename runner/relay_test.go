package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner/internal/wire"
)

// TestAwaitStartClockAndOffset: clock messages before start are
// answered with the worker's time, and the start's instants are
// converted to the worker's clock with the offset it carries.
func TestAwaitStartClockAndOffset(t *testing.T) {
	in := `{"type":"clock"}` + "\n" + `{"type":"clock"}` + "\n" +
		`{"type":"start","begin":"2000-01-01T00:00:00Z","warmup_end":"2000-01-01T00:00:01Z","end":"2000-01-01T00:00:03Z","offset":-1500000000}` + "\n"
	var out bytes.Buffer
	before := time.Now()
	start, win, err := awaitStart(wire.NewReader(strings.NewReader(in)), &out)
	after := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("answers %q, want two clock lines", lines)
	}
	for _, l := range lines {
		var m wire.Clock
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.Type != wire.TypeClock || m.Time.Before(before.Add(-time.Second)) || m.Time.After(after.Add(time.Second)) {
			t.Errorf("answer %s: want a clock with this machine's time", l)
		}
	}
	at := func(s string) time.Time { t0, _ := time.Parse(time.RFC3339Nano, s); return t0 }
	if got, want := win, (results.Window{Start: at("1999-12-31T23:59:59.5Z"), End: at("2000-01-01T00:00:01.5Z")}); !got.Start.Equal(want.Start) || !got.End.Equal(want.End) {
		t.Errorf("window %v–%v, want %v–%v (the controller's instants 1.5 s earlier)", got.Start, got.End, want.Start, want.End)
	}
	if got, want := start.Local(start.Begin), at("1999-12-31T23:59:58.5Z"); !got.Equal(want) {
		t.Errorf("begin %v, want %v", got, want)
	}
}

// TestRelayPinsAndEndsWithSession runs Relay as a remote host would: the
// worker it starts is pinned to the group's CPUs (seen in /proc by its
// pid), answers ready through the relay, and exits — with the relay —
// when the session's input closes.
func TestRelayPinsAndEndsWithSession(t *testing.T) {
	if !pinning.Supported {
		t.Skip("no CPU pinning on this OS")
	}
	t.Setenv(envWorker, "1") // the worker the relay starts is this test binary
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Relay(context.Background(), inR, outW, io.Discard, os.Args[0], nil)
		outW.Close()
	}()
	if _, err := inW.Write(validSpec(t)); err != nil {
		t.Fatal(err)
	}
	lr := wire.NewReader(outR)
	m, err := lr.Next()
	if err != nil || m.Type != wire.TypeReady {
		t.Fatalf("first line %q, %v; want ready", m.Type, err)
	}
	var r wire.Ready
	if err := m.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.PID == os.Getpid() {
		t.Fatal("ready came from the relay's own process, want its child")
	}
	got, err := pinning.Allowed(fmt.Sprint(r.PID))
	if err != nil || got.String() != "0" || r.CPUs != "0" {
		t.Errorf("worker pid %d runs on %q (%v), reports %q; want CPU 0", r.PID, got, err, r.CPUs)
	}
	inW.Close() // the ssh session ends
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("relay still running 10 s after its input closed")
	}
	if gone := waitGone([]int{r.PID}, 5*time.Second); len(gone) != 0 {
		t.Errorf("worker %v still running after the relay returned", gone)
	}
}

// TestPickBinary: a binaries entry wins; this build serves its own
// platform; another platform without an entry is an error that says how
// to build it.
func TestPickBinary(t *testing.T) {
	own := runtime.GOOS + "/" + runtime.GOARCH
	other := "linux/arm64"
	if own == other {
		other = "linux/amd64"
	}
	entry := filepath.Join(t.TempDir(), "kaeload-other")
	if err := os.WriteFile(entry, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := pickBinary(own, nil, "/self"); err != nil || got != "/self" {
		t.Errorf("own platform: %q, %v", got, err)
	}
	if got, err := pickBinary(other, map[string]string{other: entry}, "/self"); err != nil || got != entry {
		t.Errorf("entry: %q, %v", got, err)
	}
	goos, goarch, _ := strings.Cut(other, "/")
	_, err := pickBinary(other, nil, "/self")
	if err == nil || !strings.Contains(err.Error(), "the host is "+other) || !strings.Contains(err.Error(), "GOOS="+goos+" GOARCH="+goarch+" go build") {
		t.Errorf("no entry: %v", err)
	}
	if _, err := pickBinary(other, map[string]string{other: entry + "-missing"}, "/self"); err == nil || !strings.Contains(err.Error(), "go build -o "+entry+"-missing") {
		t.Errorf("missing entry: %v", err)
	}
}

// TestSyncClocks: a remote worker whose clock is 3 s ahead, answering
// after 4 ms, reads as a 3 s offset within the round trip, and a window
// for which half that round trip is more than 1 % is warned about once.
// The per-worker clock line is chatter: the run log's, not the user's.
func TestSyncClocks(t *testing.T) {
	const skew, delay = 3 * time.Second, 4 * time.Millisecond
	for _, tc := range []struct {
		window time.Duration
		warn   bool
	}{{100 * time.Millisecond, true}, {time.Hour, false}} {
		r, w := io.Pipe()
		var log, chatter bytes.Buffer
		ws := &workers{events: make(chan event, 1), log: &log, chatter: &chatter}
		p := &proc{index: 1, host: &hostConn{name: "ssh://h"}, stdin: w, stderr: &ring{}}
		ws.procs = []*proc{p}
		go func() {
			lr := wire.NewReader(r)
			for {
				if _, err := lr.Next(); err != nil {
					return
				}
				time.Sleep(delay / 2)
				b, _ := json.Marshal(wire.Clock{Type: wire.TypeClock, Time: time.Now().Add(skew)})
				time.Sleep(delay / 2)
				m, _ := wire.Parse(b)
				ws.events <- event{w: p, msg: m}
			}
		}()
		var warnings []string
		if err := ws.syncClocks(context.Background(), tc.window, func(w results.Warning) { warnings = append(warnings, w.Message) }); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if p.rtt < delay || p.offset < skew-p.rtt/2-time.Millisecond || p.offset > skew+p.rtt/2+time.Millisecond {
			t.Errorf("round trip %s, offset %s; want ≥ %s and %s within the round trip", p.rtt, p.offset, delay, skew)
		}
		if got := p.host.info; got.RTT != p.rtt || got.ClockOffset != p.offset || got.Uncertain != tc.warn {
			t.Errorf("host info %+v, want the worker's clock and uncertain %v", got, tc.warn)
		}
		if (len(warnings) == 1) != tc.warn || (tc.warn && !strings.Contains(warnings[0], "host ssh://h: the clock offset is uncertain")) {
			t.Errorf("window %s: warnings %q", tc.window, warnings)
		}
		if !strings.Contains(chatter.String(), "host ssh://h: worker 1 round trip") || log.Len() > 0 {
			t.Errorf("the clock line went to the log (%q), not the chatter (%q)", log.String(), chatter.String())
		}
	}
}
