package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
)

func TestStartFails(t *testing.T) {
	var log bytes.Buffer
	c := &Control{Log: &log}
	start := time.Now()
	err := c.Start(context.Background(), "echo preparing; echo 'bad config' >&2; exit 3", Ready{Addr: testkit.FreeAddr(t), Timeout: 10 * time.Second})
	var ce *CommandError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CommandError", err)
	}
	if ce.Status != "exit status 3" || strings.Join(ce.Stderr, "|") != "preparing|bad config" {
		t.Errorf("got status %q stderr %q", ce.Status, ce.Stderr)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("failure reported after %v; the command exited at once", d)
	}
	if !strings.Contains(log.String(), "[start] bad config") {
		t.Errorf("log lacks the command's output:\n%s", log.String())
	}
}

func TestStartNeverReady(t *testing.T) {
	c := &Control{}
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	err := c.Start(context.Background(), "echo $$ > "+pidFile+"; exec sleep 60", Ready{Addr: testkit.FreeAddr(t), Interval: 50 * time.Millisecond, Timeout: 700 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "not ready after 700ms (tcp probe)") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v for a 700ms ready timeout", d)
	}
	b, _ := os.ReadFile(pidFile)
	var pid int
	fmt.Sscan(string(b), &pid)
	if pid == 0 {
		t.Fatal("start command did not record its pid")
	}
	if testkit.Alive(pid) {
		t.Errorf("start command (pid %d) still running after a failed start", pid)
	}
}

func nginxConf(t *testing.T, addr string, daemon bool) (conf, dir string) {
	dir = t.TempDir()
	d := "off"
	if daemon {
		d = "on"
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf = filepath.Join(dir, "nginx.conf")
	// master_process off: a master rewrites its argv/environ area with its
	// process title, so /proc/<pid>/environ would no longer show the env.
	text := fmt.Sprintf(`daemon %s; master_process off; %s pid %s/nginx.pid; error_log %s/error.log;
events {} http { access_log off; client_body_temp_path %s; server { listen %s; return 204; } }`, d, user, dir, dir, dir, addr)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return conf, dir
}

// TestStartStopNginx runs both kinds of start command against real nginx:
// one that daemonizes and one that stays in the foreground. Both must be
// ready, get the variant's environment, and be gone after Stop.
func TestStartStopNginx(t *testing.T) {
	bin := nginxtest.Binary(t)
	for _, daemon := range []bool{true, false} {
		t.Run(fmt.Sprintf("daemon=%v", daemon), func(t *testing.T) {
			addr := testkit.FreeAddr(t)
			conf, dir := nginxConf(t, addr, daemon)
			var log bytes.Buffer
			c := &Control{Env: map[string]string{"KAELOAD_VARIANT": "kae-33"}, Log: &log}
			start := fmt.Sprintf("%s -e %s/error.log -p %s -c %s", bin, dir, dir, conf)
			if err := c.Start(context.Background(), start, Ready{Addr: addr, Timeout: 5 * time.Second}); err != nil {
				t.Fatalf("%v\n%s", err, log.String())
			}
			// Listening comes before the pid file is written on a busy
			// machine: wait for the pid, not for a time.
			var pid int
			for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
				b, err := os.ReadFile(filepath.Join(dir, "nginx.pid"))
				if err == nil {
					fmt.Sscan(string(b), &pid)
				}
				if pid == 0 && time.Now().After(deadline) {
					t.Fatalf("no pid in %s/nginx.pid after 10 s (%v)", dir, err)
				}
			}
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(env, []byte("\x00KAELOAD_VARIANT=kae-33\x00")) {
				t.Errorf("nginx master lacks the variant env")
			}
			if got, want := c.Foreground() != 0, !daemon; got != want {
				t.Errorf("foreground = %v, want %v", got, want)
			}
			stop := ""
			if daemon {
				stop = fmt.Sprintf("%s -p %s -c %s -s quit", bin, dir, conf)
			}
			if err := c.Stop(context.Background(), stop, 10*time.Second); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for testkit.Alive(pid) && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if testkit.Alive(pid) {
				t.Errorf("nginx (pid %d) still running after Stop", pid)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	c := &Control{}
	_, err := c.Run(context.Background(), "stop", "sleep 10", 200*time.Millisecond)
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Status != "did not finish within 200ms" {
		t.Fatalf("err = %v", err)
	}
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		re   string
		out  string
		want float64
		err  bool
	}{
		{"", "12345\n", 12345, false},
		{"", "send_cnt: 99\n", 99, false},
		{`recv_cnt:\s*(\d+)`, "send_cnt: 99\nrecv_cnt: 1024\n", 1024, false},
		{`recv_cnt:\s*(\d+)`, "nothing here", 0, true},
		{"", "no digits", 0, true},
		{"", "1.5e3 ops", 1500, false},
	} {
		var re *regexp.Regexp
		if tc.re != "" {
			re = regexp.MustCompile(tc.re)
		}
		got, err := ParseNumber(re, tc.out)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseNumber(%q, %q) = %v, %v; want %v (error %v)", tc.re, tc.out, got, err, tc.want, tc.err)
		}
	}
}

// TestParseNumberErrorShowsPattern: the error gives the pattern as
// written, so that a report quoting the error does not double its
// backslashes (`send_cnt:\\s*(\\d+)` was what users read).
func TestParseNumberErrorShowsPattern(t *testing.T) {
	_, err := ParseNumber(regexp.MustCompile(`send_cnt:\s*(\d+)`), "recv_cnt: 5\n")
	if got, want := fmt.Sprint(err), "output \"recv_cnt: 5\" does not match the pattern `send_cnt:\\s*(\\d+)`"; got != want {
		t.Errorf("error\n got %s\nwant %s", got, want)
	}
}

func TestReadyKinds(t *testing.T) {
	addr := testkit.FreeAddr(t)
	if err := WaitReady(context.Background(), Ready{Kind: "tls", Addr: addr, Timeout: 300 * time.Millisecond}, nil); err == nil {
		t.Fatal("ready with nothing listening")
	}
	if err := WaitReady(context.Background(), Ready{Kind: "bogus", Addr: addr, Timeout: 100 * time.Millisecond}, nil); err == nil || !strings.Contains(err.Error(), `unknown ready probe "bogus"`) {
		t.Fatalf("err = %v", err)
	}
	// Each probe's steps are tallied; the https one is nginx's only log line.
	s := nginxtest.Start(t, nginxtest.Config{})
	for _, tc := range []struct {
		r    Ready
		want Tally
	}{
		{Ready{Kind: "tcp", Addr: s.Addr}, Tally{1, 0, 0}},
		{Ready{Kind: "tls", Addr: s.Addr}, Tally{1, 1, 0}},
		{Ready{Kind: "https", URL: "https://" + s.Addr + "/index.html"}, Tally{1, 1, 1}},
	} {
		tc.r.Timeout, tc.r.Tally = 3*time.Second, new(Tally)
		if err := WaitReady(context.Background(), tc.r, nil); err != nil {
			t.Errorf("%s: %v", tc.r.Kind, err)
		}
		if got := *tc.r.Tally; got != tc.want {
			t.Errorf("%s: tally %+v, want %+v", tc.r.Kind, got, tc.want)
		}
	}
	if got, want := len(s.Log(t)), 1; got != want {
		t.Errorf("nginx logged %d requests, want %d (the https probe's)", got, want)
	}
}

// TestReadProbe reads a probe's number through its pattern, and a probe
// that outlives its Timeout fails with a *CommandError saying so, soon.
func TestReadProbe(t *testing.T) {
	c := &Control{Env: map[string]string{"KAE_COUNT": "4096"}}
	got, err := c.Read(context.Background(), Probe{Name: "kae", Command: `echo "send: 1"; echo "recv: $KAE_COUNT"`, Pattern: regexp.MustCompile(`recv: (\d+)`)})
	if err != nil || got != 4096 {
		t.Errorf("Read = %v, %v; want 4096, nil", got, err)
	}
	start := time.Now()
	_, err = c.Read(context.Background(), Probe{Name: "slow", Command: "sleep 10", Timeout: 300 * time.Millisecond})
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Step != "probe slow" || ce.Status != "did not finish within 300ms" {
		t.Errorf("err = %v, want a *CommandError for step %q that did not finish within 300ms", err, "probe slow")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a probe with a 300ms timeout took %v", d)
	}
}
