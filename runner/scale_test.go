package runner

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results/format"
)

// TestTenThousandConnections runs 10,000 concurrent short-connection slots
// (two groups of 5,000) against nginx on loopback for a few seconds. The
// run completes, every slot the workers opened is accounted for, and the
// client's memory per connection slot (results.Rep.SlotMemory: the
// workers' private memory grown over their idle size, less what any
// loaded worker grows by) stays under 64 KiB: goroutine stacks, TLS state
// of the connections in flight, buffers.
//
// How many slots have opened their connection by the window's end
// depends on the CPU the machine gives the workers (a slot's first
// handshake costs the client its key exchange); the test counts them
// itself, as the sockets the workers hold, and checks against that. A
// machine too busy to let the workers open nearly all 10,000 skips the
// test, with the figure, once the rest is checked.
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
	opts := testOptions(t, "1")
	fds := newFDWatch()
	opts.hooks.workerStart = func(_, pid int) { fds.add(pid) }
	stop, done := make(chan struct{}), make(chan struct{})
	go fds.run(stop, done)
	run, err := Run(context.Background(), p, opts)
	close(stop)
	<-done
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	opened := fds.opened()
	rep := run.Variants[0].Reps[0]
	total := rep.Total
	if got, want := total.Slots, 2*perGroup; got != want {
		t.Errorf("slots %d, want %d", got, want)
	}
	// Every slot opened is accounted for: at the window's end each one
	// has a request in flight (it then completes late or is cut off),
	// unless it finished one in the last instant. How many complete
	// inside the window depends on the machine's speed; this does not.
	inFlight := total.Outside.Late + total.Outside.Abandoned
	t.Logf("%d requests in flight at the window's end (late %d, cut off %d); the workers held up to %d sockets", inFlight, total.Outside.Late, total.Outside.Abandoned, opened)
	if inFlight < 9*uint64(opened)/10 {
		t.Errorf("%d requests in flight at the window's end (late %d, cut off %d), want nearly all of the %d connections the workers opened",
			inFlight, total.Outside.Late, total.Outside.Abandoned, opened)
	}
	for _, g := range rep.Groups {
		if g.MemoryReady == 0 || g.MemoryPeak == 0 {
			t.Fatalf("group %d: private memory not measured (ready %d B, peak %d B)", g.Index, g.MemoryReady, g.MemoryPeak)
		}
	}
	m, _ := rep.SlotMemory()
	t.Logf("%d requests (%.1f req/s), %d errors, unanswered %+v; %s; peak RSS %.1f MiB in all",
		total.Requests, total.Rate(), total.Errors.Total(), total.Outside.Unanswered, format.SlotMemoryLine(m), float64(total.PeakRSS)/(1<<20))
	if !m.Known || m.PerSlot >= 64<<10 {
		t.Errorf("client memory per connection slot: %s; want a figure under 64 KiB", format.SlotMemoryLine(m))
	}
	if opened < 9*2*perGroup/10 {
		testkit.SkipBusy(t, "the workers opened at most %d of the %d slots' connections by the window's end: the machine gave them too little CPU to reach the scale this test is about", opened, 2*perGroup)
	}
}

// fdWatch samples, while a run is on, how many files each worker holds
// open. Every slot that has begun holds its connection's socket from its
// first connect on (closing one and opening the next in the same
// instant), so the most a worker held, less what it held at its start,
// is how many slots it had opened.
type fdWatch struct {
	mu   sync.Mutex
	base map[int]int // pid -> open files at its start
	most map[int]int // pid -> most open files seen
}

func newFDWatch() *fdWatch { return &fdWatch{base: map[int]int{}, most: map[int]int{}} }

func (w *fdWatch) add(pid int) {
	n := openFiles(pid)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.base[pid], w.most[pid] = n, n
}

// run samples every 50 ms until stop is closed.
func (w *fdWatch) run(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		w.mu.Lock()
		for pid := range w.most {
			w.most[pid] = max(w.most[pid], openFiles(pid))
		}
		w.mu.Unlock()
	}
}

// opened is the connections the workers held at most, summed.
func (w *fdWatch) opened() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for pid, most := range w.most {
		n += most - w.base[pid]
	}
	return n
}

// openFiles is how many files pid holds open (0 once it has exited).
func openFiles(pid int) int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0
	}
	return len(ents)
}
