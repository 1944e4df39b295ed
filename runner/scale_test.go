package runner

import (
	"context"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
)

// TestTenThousandConnections runs 10,000 concurrent short-connection slots
// (two groups of 5,000) against nginx on loopback for a few seconds. The
// run completes, every slot is accounted for, and the client's memory per
// connection slot (results.Rep.SlotMemory: the workers' private memory
// grown over their idle size, less what any loaded worker grows by) stays
// under 64 KiB: goroutine stacks, TLS state of the connections in flight,
// buffers.
func TestTenThousandConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 10,000 connections take a few seconds")
	}
	if raceEnabled {
		// Several times slower and with doubled memory, 10,000 slots on
		// this machine complete nothing in the window; the engine's
		// concurrency is raced by its own tests.
		t.Skip("a scale test: it runs in the plain pass, not under -race")
	}
	const perGroup = 5000
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "ecdsa-p256", WorkerConnections: 3 * perGroup})
	p := plan(ng.Addr, 2*time.Second, nil, nil)
	p.Load.Warmup = 500 * time.Millisecond
	p.Load.Timeout = 30 * time.Second // 10,000 handshakes queue at the server
	for i := range p.Load.Groups {
		p.Load.Groups[i].Connections = perGroup
	}
	if err := checkFiles(p); err != nil {
		t.Skipf("this machine cannot hold 10,000 connections: %v", err)
	}
	run, err := Run(context.Background(), p, testOptions(t, "1"))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	rep := run.Variants[0].Reps[0]
	total := rep.Total
	if got, want := total.Slots, 2*perGroup; got != want {
		t.Errorf("slots %d, want %d", got, want)
	}
	// Every slot is accounted for: at the window's end each one has a
	// request in flight (it then completes late or is cut off), unless it
	// finished one in the last instant. How many complete inside the
	// window depends on the machine's speed; this does not.
	if inFlight := total.Outside.Late + total.Outside.Abandoned; inFlight < 9*2*perGroup/10 {
		t.Errorf("%d requests in flight at the window's end (late %d, cut off %d), want nearly all %d slots",
			inFlight, total.Outside.Late, total.Outside.Abandoned, 2*perGroup)
	}
	for _, g := range rep.Groups {
		if g.MemoryReady == 0 || g.MemoryPeak == 0 {
			t.Fatalf("group %d: private memory not measured (ready %d B, peak %d B)", g.Index, g.MemoryReady, g.MemoryPeak)
		}
	}
	m, _ := rep.SlotMemory()
	t.Logf("%d requests (%.1f req/s), %d errors, unanswered %+v; %s; peak RSS %.1f MiB in all",
		total.Requests, total.Rate(), total.Errors.Total(), total.Outside.Unanswered, m.Line(), float64(total.PeakRSS)/(1<<20))
	if !m.Known || m.PerSlot >= 64<<10 {
		t.Errorf("client memory per connection slot: %s; want a figure under 64 KiB", m.Line())
	}
}
