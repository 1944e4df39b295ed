package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// verdict records what a check did to its test.
type verdict struct {
	testing.TB
	how, msg string
}

func (v *verdict) Helper() {}
func (v *verdict) Errorf(f string, a ...any) {
	v.how, v.msg = "error", fmt.Sprintf(f, a...)
}
func (v *verdict) Fatalf(f string, a ...any) {
	v.how, v.msg = "fatal", fmt.Sprintf(f, a...)
	runtime.Goexit()
}
func (v *verdict) Skipf(f string, a ...any) {
	v.how, v.msg = "skip", fmt.Sprintf(f, a...)
	runtime.Goexit()
}
func (v *verdict) Skip(a ...any) {
	v.how, v.msg = "skip", fmt.Sprint(a...)
	runtime.Goexit()
}
func (v *verdict) Log(a ...any) { v.how, v.msg = "log", fmt.Sprint(a...) }
func (v *verdict) Name() string { return "TestX" }

// check runs SameResponses on its own goroutine, as testing would.
func check(served uint64, c results.Counts) verdict {
	v := verdict{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		SameResponses(&v, "nginx", served, c)
	}()
	<-done
	return v
}

func TestSameResponses(t *testing.T) {
	clean := results.Counts{Requests: 100}
	clean.Outside.Warmup, clean.Outside.Late = 20, 3
	status := clean
	status.Errors[results.ErrStatus].Count = 100
	timedOut := clean
	timedOut.Errors[results.ErrTimeout].Count = 1
	cut := clean
	cut.Outside.Abandoned = 2
	refused := clean
	refused.Errors[results.ErrConnect] = results.ErrorCount{Count: 1, First: "connection refused"}
	for _, tc := range []struct {
		name   string
		served uint64
		c      results.Counts
		how    string
		want   string
	}{
		{"equal", 123, clean, "", ""},
		{"error statuses are responses", 123, status, "", ""},
		{"one missing", 122, clean, "error", "nginx served 122 requests; kaeload read 100 in the window + 20 in the warm-up + 3 late = 123"},
		{"one extra", 124, clean, "error", "nginx served 124 requests"},
		{"timeout not served", 123, timedOut, "", ""},
		{"timeout served", 124, timedOut, "", ""},
		{"timeout and one missing", 122, timedOut, "error", "= 123, and 1 timed out"},
		{"timeout and one extra", 125, timedOut, "error", "= 123, and 1 timed out"},
		{"cut off served", 125, cut, "", ""},
		{"cut off and one extra", 126, cut, "error", "2 were cut off"},
		{"refused", 123, refused, "fatal", "connect 1 (first: connection refused)"},
	} {
		v := check(tc.served, tc.c)
		if v.how != tc.how || !strings.Contains(v.msg, tc.want) {
			t.Errorf("%s: %s %q, want %s containing %q", tc.name, v.how, v.msg, tc.how, tc.want)
		}
	}
}

// TestSkipBusy: the skip says BUSY-SKIP and appends a line to the file
// CI counts; WaiveBusy counts one the same way and lets the test go on.
func TestSkipBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy")
	t.Setenv(BusySkips, path)
	for range 2 {
		var v verdict
		done := make(chan struct{})
		go func() {
			defer close(done)
			SkipBusy(&v, "load %d", 7)
		}()
		<-done
		if v.how != "skip" || !strings.HasPrefix(v.msg, "BUSY-SKIP: ") || !strings.HasSuffix(v.msg, "load 7") {
			t.Errorf("SkipBusy: %s %q, want a skip starting BUSY-SKIP:", v.how, v.msg)
		}
	}
	var v verdict
	WaiveBusy(&v, "steal %d", 9)
	if v.how != "log" || !strings.HasPrefix(v.msg, "BUSY-SKIP: ") || !strings.HasSuffix(v.msg, "steal 9") {
		t.Errorf("WaiveBusy: %s %q, want a log line starting BUSY-SKIP:", v.how, v.msg)
	}
	b, err := os.ReadFile(path)
	if got := strings.Count(string(b), "BUSY-SKIP: "); err != nil || got != 3 {
		t.Errorf("%s holds %d skips (%v), want 3:\n%s", BusySkips, got, err, b)
	}
}

// TestNeedCommand: a command that is there gives its path; one that is
// not skips the test, naming it and how to install it, and under CI=true
// fails it instead.
func TestNeedCommand(t *testing.T) {
	need := func(name string) (string, verdict) {
		var v verdict
		var path string
		done := make(chan struct{})
		go func() {
			defer close(done)
			path = NeedCommand(&v, name, "Debian's package")
		}()
		<-done
		return path, v
	}
	if path, v := need("sh"); path == "" || v.how != "" {
		t.Errorf("NeedCommand(sh) = %q, %s %q; want a path and nothing else", path, v.how, v.msg)
	}
	const absent = "kaeload-no-such-command"
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		want := map[string]string{"": "skip", "true": "fatal"}[ci]
		path, v := need(absent)
		if path != "" || v.how != want || !strings.Contains(v.msg, absent+" not found (Debian's package)") {
			t.Errorf("CI=%q: NeedCommand(%s) = %q, %s %q; want %s naming it", ci, absent, path, v.how, v.msg, want)
		}
	}
}
