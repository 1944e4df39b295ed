package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner/internal/wire"
	"github.com/kaeload/kaeload/scenarios/plans"
)

func TestLineReader(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		types   []string // messages read before the error
		wantErr string   // "" = io.EOF
	}{
		{"messages", `{"type":"ready","pid":1}` + "\n" + `{"type":"snapshot"}` + "\n", []string{"ready", "snapshot"}, ""},
		{"empty", "", nil, ""},
		{"garbage", "hello\n", nil, `not a protocol message: "hello"`},
		{"no type", `{"pid":1}` + "\n", nil, `not a protocol message: "{\"pid\":1}"`},
		{"array", "[1]\n", nil, `not a protocol message: "[1]"`},
		{"cut", `{"type":"ready"}` + "\n" + `{"type":"fin`, []string{"ready"}, `stream ended inside a line: "{\"type\":\"fin"`},
		{"long garbage", strings.Repeat("x", 200) + "\n", nil, `not a protocol message: "` + strings.Repeat("x", 120) + `"…`},
		{"big line", `{"type":"final","pad":"` + strings.Repeat("y", 200<<10) + `"}` + "\n", []string{"final"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := wire.NewReader(strings.NewReader(tt.in))
			var got []string
			var err error
			for {
				var m wire.Message
				if m, err = lr.Next(); err != nil {
					break
				}
				got = append(got, m.Type)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.types) {
				t.Errorf("messages = %v, want %v", got, tt.types)
			}
			if tt.wantErr == "" {
				if !errors.Is(err, io.EOF) {
					t.Errorf("error = %v, want io.EOF", err)
				}
			} else if err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v\nwant %s", err, tt.wantErr)
			}
		})
	}
}

func TestRing(t *testing.T) {
	r := &ring{}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(r, "line %d\n", i)
	}
	_, _ = r.Write([]byte("partial"))
	got := r.last()
	if len(got) != stderrLines {
		t.Fatalf("kept %d lines, want %d", len(got), stderrLines)
	}
	if got, want := got[0], "line 11"; got != want {
		t.Errorf("first kept line = %q, want %q", got, want)
	}
	if got, want := got[len(got)-1], "partial"; got != want {
		t.Errorf("last kept line = %q, want %q", got, want)
	}
}

func TestWorkerErrorMessage(t *testing.T) {
	tests := []struct {
		err  *WorkerError
		want string
	}{
		{&WorkerError{Group: 3, CPUs: "30-39", Err: errors.New("boom")}, "group 3 (CPUs 30-39): boom"},
		{&WorkerError{Group: 0, Err: errors.New("boom"), Stderr: []string{"a", "b"}}, "group 0 (CPUs unpinned): boom; last worker stderr:\n    a\n    b"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestCheckFiles(t *testing.T) {
	limit, err := raiseNoFile()
	if err != nil {
		t.Fatal(err)
	}
	if limit == 0 || limit > math.MaxInt32 {
		t.Skipf("open-file limit %d: unknown or too large to exceed", limit)
	}
	fits := int(limit) - spareFiles
	p := plan("127.0.0.1:1", time.Second, nil, nil)
	p.Load.Groups[0].Connections = fits
	if err := checkFiles(p); err != nil {
		t.Errorf("group of %d connections under limit %d: %v", fits, limit, err)
	}
	p.Load.Groups[1].Connections = fits + 1
	err = checkFiles(p)
	want := fmt.Sprintf("group 1 needs %d open files (%d connections + 64 spare) but the limit is %d: raise the hard limit (ulimit -Hn %d, or LimitNOFILE=) or use fewer connections per group (at most %d)",
		limit+1, fits+1, limit, limit+1, fits)
	if err == nil || err.Error() != want {
		t.Errorf("checkFiles error\n got %v\nwant %s", err, want)
	}
	// The built-in target holds every group's connections in one process.
	p = builtinPlan(time.Second, nil, nil)
	p.Load.Groups[0].Connections = fits / 2
	p.Load.Groups[1].Connections = fits/2 + 2
	if err := checkFiles(p); err == nil || !strings.Contains(err.Error(), "the built-in target needs") {
		t.Errorf("checkFiles = %v, want the built-in target's need reported", err)
	}
}

func TestCheckPlan(t *testing.T) {
	good := plan("127.0.0.1:1", time.Second, nil)
	if err := checkPlan(good); err != nil {
		t.Errorf("good plan: %v", err)
	}
	bad := &plans.Plan{Load: plans.Load{Groups: []plans.Group{{}}}}
	err := checkPlan(bad)
	for _, want := range []string{"plan: ", "repeat", "no variants", "duration", "addr", "threads", "connections"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkPlan error %v, want it to mention %q", err, want)
		}
	}
}

func TestProgressModes(t *testing.T) {
	buf := &testkit.LockedBuffer{}
	tests := []struct {
		mode string
		w    io.Writer
		want string // display: none, plain or bars
	}{
		{"", buf, "plain"}, // auto, not a terminal
		{ProgressAuto, nil, "none"},
		{ProgressOn, buf, "bars"},
		{ProgressPlain, buf, "plain"},
		{ProgressOff, buf, "none"},
	}
	for _, tt := range tests {
		d, err := newDisplay(tt.mode, tt.w, nil)
		if err != nil {
			t.Errorf("mode %q: %v", tt.mode, err)
			continue
		}
		got := "none"
		if d != nil {
			got = map[bool]string{false: "plain", true: "bars"}[d.bars]
		}
		if got != tt.want {
			t.Errorf("mode %q: display %s, want %s", tt.mode, got, tt.want)
		}
	}
	if !sameWriter(buf, buf) || sameWriter(buf, &testkit.LockedBuffer{}) || sameWriter(nil, nil) {
		t.Error("sameWriter: want true only for the same writer")
	}
	if _, err := newDisplay("fancy", buf, nil); err == nil || !strings.Contains(err.Error(), `progress mode "fancy"`) {
		t.Errorf("mode fancy: error %v, want one naming the mode", err)
	}
}

// TestBars drives the bar display with snapshots and checks what it drew.
func TestBars(t *testing.T) {
	buf := &testkit.LockedBuffer{}
	log := &logSink{w: buf}
	d := &display{w: buf, log: log, bars: true}
	now := time.Now()
	win := results.Window{Start: now.Add(100 * time.Millisecond), End: now.Add(700 * time.Millisecond)}
	lv := newLive(2)
	lv.setTCPHosts([]results.TCPHost{{Name: "local", Client: true}, {Name: "srv", Server: true}})
	d.show(repInfo{label: "variant base rep 2/3", begin: now, window: win, groups: []string{"group 0 [0-9]", "group 1 [10-19]"},
		runEnd: win.End.Add(12 * time.Minute)}, lv)
	for i := 1; i <= 6; i++ {
		at := time.Now()
		lv.update(0, wire.Snapshot{Requests: uint64(100 * i)}, at)
		lv.update(1, wire.Snapshot{Requests: uint64(50 * i), Errors: 7}, at)
		if i >= 4 { // as the controller reads the counters, while the bars draw
			lv.addTCP(1, i, cpustat.TCPDelta{Values: map[string]uint64{"ListenOverflows": 400, "ActiveOpens": 9}})
		}
		time.Sleep(100 * time.Millisecond)
		if i == 3 {
			fmt.Fprintln(log, "worker 1: a log line while the bars run")
		}
	}
	total := results.Rep{Total: results.Group{Window: win, Counts: results.Counts{Requests: 900}}}
	d.done(&total)
	out := buf.String()
	t.Logf("bars:\n%s", out)
	for _, re := range []string{
		`variant base rep 2/3\n`,
		`group 0 \[0-9\] .* 600 req +\d+ req/s +0 err`,
		`group 1 \[10-19\] .* 300 req +\d+ req/s +7 err`,
		`total .* 900 req +\d+ req/s +7 err \(run about 12m0s left\) +\d+\.\d s left`,
		`kernel +no TCP trouble so far`,
		`kernel +server: listen overflows 1,200\n`,
		`\nworker 1: a log line while the bars run\n`,
		`variant base rep 2/3: done, 900 requests in 0\.6 s, 1500 req/s, 0 errors; kernel server: listen overflows 1,200\n$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("bars output does not match %s", re)
		}
	}
}

// TestLiveKernel: the live display names the kernel's TCP trouble over
// the window so far (the warm-up's intervals, k < 0, are not in it),
// host by host, by role, and only the counters that mean trouble.
func TestLiveKernel(t *testing.T) {
	lv := newLive(1)
	if got := lv.kernel(); got != "" || lv.hasTCP() {
		t.Errorf("without a timeline: kernel %q, hasTCP %v; want nothing", got, lv.hasTCP())
	}
	lv.setTCPHosts([]results.TCPHost{
		{Name: "local", Client: true, Server: true, Shared: true},
		{Name: "lg2", Client: true},
		{Name: "srv", Server: true},
		{Name: "local", Client: true},
	})
	d := func(kv ...any) cpustat.TCPDelta {
		v := map[string]uint64{}
		for i := 0; i < len(kv); i += 2 {
			v[kv[i].(string)] = uint64(kv[i+1].(int))
		}
		return cpustat.TCPDelta{Values: v}
	}
	lv.addTCP(0, -1, d("ListenOverflows", 5000)) // warm-up
	lv.addTCP(0, 0, d("ListenOverflows", 1000, "TCPSynRetrans", 6, "ActiveOpens", 800, "RetransSegs", 3))
	lv.addTCP(0, 1, d("ListenOverflows", 234, "TCPSynRetrans", 50))
	lv.addTCP(1, 0, d("OutRsts", 7, "TCPAbortOnData", 2, "TCPAbortOnMemory", 1)) // resets: normal in TLS
	lv.addTCP(2, 1, d("ActiveOpens", 5, "PassiveOpens", 5))                      // no trouble
	lv.addTCP(3, 2, d("TCPTimeWaitOverflow", 3))
	lv.addTCP(9, 0, d("ListenOverflows", 1)) // no such host: ignored
	want := "client+server: listen overflows 1,234, SYN retransmits 56; client lg2: aborts on memory 1; client: TIME_WAIT overflows 3"
	if got := lv.kernel(); got != want || !lv.hasTCP() {
		t.Errorf("kernel\n got %q\nwant %q", got, want)
	}
	if got := kernelWords(""); got != "" {
		t.Errorf("kernelWords of none = %q", got)
	}
}

// TestProgressOpenLoop: the live counts carry the missed starts, and a
// repetition's closing line gives the missed starts, the p99 from the
// intended start and the client's CPU µs per request.
func TestProgressOpenLoop(t *testing.T) {
	lv := newLive(2)
	lv.update(0, wire.Snapshot{Requests: 100, Missed: 3}, time.Unix(100, 0))
	lv.update(1, wire.Snapshot{Requests: 50, Missed: 4}, time.Unix(100, 0))
	if s, _ := lv.total(); s.Missed != 7 || missedWords(s.Missed) != ", 7 missed" || missedWords(0) != "" {
		t.Errorf("live total missed %d (%q), want 7", s.Missed, missedWords(s.Missed))
	}
	g := results.Group{Window: results.Window{Start: time.Unix(100, 0), End: time.Unix(101, 0)}}
	g.Requests, g.Scheduled, g.Missed = 100, 110, 10
	g.Latency.Intended = results.NewHistogram()
	g.Latency.Intended.RecordN(2*time.Millisecond, 100)
	g.Process = &results.CPUUsage{Seconds: 0.005} // 50 µs per request
	rep := results.NewRep(0, []results.Group{g})
	got := summary("variant v rep 1/1", &rep)
	for _, want := range []string{"100 requests in 1.0 s", "10 of 110 starts missed", "p99 from intended start 2.", "client 50.0 µs/req"} {
		if !strings.Contains(got, want) {
			t.Errorf("closing line %q lacks %q", got, want)
		}
	}
}

func TestLiveRate(t *testing.T) {
	lv := newLive(1)
	t0 := time.Unix(100, 0)
	for i := 0; i <= 8; i++ { // 400 req/s in 250 ms steps
		lv.update(0, wire.Snapshot{Requests: uint64(100 * i)}, t0.Add(time.Duration(i)*250*time.Millisecond))
	}
	s, r := lv.group(0)
	if s.Requests != 800 || math.Abs(r-400) > 1e-9 {
		t.Errorf("group: %d requests at %.1f req/s, want 800 at 400", s.Requests, r)
	}
	if n := len(lv.hist[0]); n > 6 {
		t.Errorf("kept %d samples, want about a second's worth", n)
	}
}

func TestSessions(t *testing.T) {
	p := plan("127.0.0.1:1", time.Second, nil)
	p.Variants = []plans.Variant{{Name: "a"}, {Name: "b"}}
	p.Repeat = 2
	show := func() string {
		var parts []string
		for _, s := range sessions(p) {
			parts = append(parts, fmt.Sprintf("%s%v", p.Variants[s.variant].Name, s.reps))
		}
		return strings.Join(parts, " ")
	}
	for _, tt := range []struct {
		order results.Order
		want  string
	}{
		{"", "a[0 1] b[0 1]"},
		{results.OrderSequential, "a[0 1] b[0 1]"},
		{results.OrderInterleaved, "a[0] b[0] a[1] b[1]"},
	} {
		p.Order = tt.order
		if got := show(); got != tt.want {
			t.Errorf("order %q: sessions %s, want %s", tt.order, got, tt.want)
		}
	}
	// Randomized blocks with a server: one start per window, every round
	// in BlockOrder's order for the seed.
	p.Order, p.Seed, p.SeedSet = results.OrderRandomized, 42, true
	p.Server = &plans.Server{}
	var want []string
	for r := range p.Repeat {
		for _, v := range results.BlockOrder(42, 2, r) {
			want = append(want, fmt.Sprintf("%s[%d]", p.Variants[v].Name, r))
		}
	}
	if got := show(); got != strings.Join(want, " ") {
		t.Errorf("randomized: sessions %s, want %s", got, strings.Join(want, " "))
	}
}

// TestRepeatAuto: repeat: auto measures the baseline first, without
// recording it, then runs every variant as many times as the noise asks
// (here a 30 % effect, which two or three repetitions detect), at most max.
func TestRepeatAuto(t *testing.T) {
	endToEndOnce(t, "repeat: auto calibrates on measured noise")
	p := builtinPlan(200*time.Millisecond, nil)
	p.Load.Warmup = 50 * time.Millisecond
	p.Variants = []plans.Variant{{Name: "a"}, {Name: "b"}}
	p.Order = results.OrderRandomized
	p.Auto = &plans.AutoRepeat{Effect: 0.3, Max: 4, Calibrate: 3}
	p.Repeat = 4
	r, err := Run(context.Background(), p, testOptions(t, "1"))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Calibration
	if c == nil || len(c.Rates) != 3 || c.Variant != "a" || c.Family != 1 || c.Max != 4 || c.Repeat < 2 || c.Repeat > 4 {
		t.Fatalf("calibration %+v, want 3 rates of variant a, family 1, 2..4 repetitions", c)
	}
	for _, v := range r.Variants {
		if len(v.Reps) != c.Repeat {
			t.Errorf("variant %s: %d repetitions, want the calibrated %d", v.Name, len(v.Reps), c.Repeat)
		}
	}
	if r.Order != results.OrderRandomized || r.Seed == 0 {
		t.Errorf("run order %q seed %d, want randomized with a drawn seed", r.Order, r.Seed)
	}
}

func TestCheckPlanServer(t *testing.T) {
	p := plan("127.0.0.1:1", time.Second, nil)
	p.Order = "random"
	p.Server = &plans.Server{Host: "ssh://root@h", Ready: plans.Ready{Kind: "ping"}}
	p.Variants[0].Probes = []plans.Probe{{Name: "kae", Command: "true", Pattern: "("}}
	err := checkPlan(p)
	for _, want := range []string{`order: "random"`, `"ssh://root@h"`, `"ping"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkPlan error %v, want it to mention %s", err, want)
		}
	}
	if _, err := compileProbes(p); err == nil || !strings.HasPrefix(err.Error(), "plan: variant default: probe kae: pattern: error parsing regexp") {
		t.Errorf("compileProbes error = %v, want one naming the variant and probe", err)
	}
}
