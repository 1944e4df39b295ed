package engine

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// maxConnectTries is the most connects a closed-loop slot can try against
// a server that refuses them all in a window of length w: backoffAfter
// tries, then one after each back-off that ended before the window did.
// Timers never fire early, so this bound holds however slow the machine.
func maxConnectTries(w time.Duration) int {
	n, waited, d := backoffAfter, time.Duration(0), time.Duration(0)
	for {
		d = min(max(2*d, backoffMin), backoffMax)
		if waited += d; waited >= w {
			return n
		}
		n++
	}
}

// TestBackoffRefused: slots whose connects are all refused back off
// instead of spinning. Their connect errors stay counted, but there are
// at most maxConnectTries per slot (about 12 in 400 ms), where one
// goroutine dialling the same port back to back, measured beside it, makes
// thousands; the back-offs are counted.
func TestBackoffRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now

	const slots, length = 2, 400 * time.Millisecond
	e := newEngine(t, plans.Target{Addr: addr, Method: "GET", Request: []byte(closeRequest)}, load(plans.Close, time.Second), slots)
	busy := make(chan int, 1)
	go func() { // the busy loop the back-off avoids, over the same time
		n := 0
		for end := time.Now().Add(length); time.Now().Before(end); n++ {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
			}
		}
		busy <- n
	}()
	g := run(t, e, window(0, length))
	spun := <-busy

	connect := g.Errors[results.ErrConnect].Count
	t.Logf("%d slots over %s: %d connect errors, %d back-offs; one goroutine dialling back to back: %d refused connects", slots, length, connect, g.Backoffs, spun)
	if connect == 0 || g.Errors.Total() != connect {
		t.Errorf("errors %+v: want connect errors only", g.Errors)
	}
	if bound := uint64(slots * maxConnectTries(length)); connect > bound {
		t.Errorf("%d connect errors, want at most %d (%d slots backing off over %s)", connect, bound, slots, length)
	}
	if g.Backoffs < slots {
		t.Errorf("Backoffs = %d, want at least one per slot (%d)", g.Backoffs, slots)
	}
	if g.Requests != 0 || g.Counts.Connections != 0 {
		t.Errorf("Requests, Connections = %d, %d; want 0, 0", g.Requests, g.Counts.Connections)
	}
}

// TestBackoffRecovers: a server that stops listening in the middle of the
// window makes the slots back off; once it listens again they are back
// to work, and a connect that succeeds ends the back-off.
func TestBackoffRecovers(t *testing.T) {
	serve := func(ln net.Listener) {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 512)
				_, _ = c.Read(buf)
				_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
			}()
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	go serve(ln)

	const slots = 2
	e := newEngine(t, plans.Target{Addr: addr, Method: "GET", Request: []byte(closeRequest)}, load(plans.Close, time.Second), slots)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan results.Group, 1)
	go func() { done <- e.Run(ctx, window(0, 20*time.Second)) }()
	poll := func(what string, cond func(Snapshot) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(e.Snapshot()); time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				cancel()
				<-done
				t.Fatalf("%s: not within 10 s (snapshot %+v)", what, e.Snapshot())
			}
		}
	}
	poll("first responses", func(s Snapshot) bool { return s.Requests > 0 })
	ln.Close()
	// Every slot has failed backoffAfter times in a row and backs off.
	poll("connect errors", func(s Snapshot) bool { return s.Errors >= slots*(backoffAfter+3) })
	if ln, err = net.Listen("tcp", addr); err != nil {
		cancel()
		<-done
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	defer ln.Close()
	go serve(ln)
	back := time.Now()
	before := make([]uint64, slots)
	for i, s := range e.slots {
		before[i] = s.pub.requests.Load()
	}
	poll("responses on every slot after the server is back", func(Snapshot) bool {
		for i, s := range e.slots {
			if s.pub.requests.Load() < before[i]+2 {
				return false
			}
		}
		return true
	})
	resumed := time.Since(back)
	cancel()
	g := <-done
	t.Logf("back to work %s after the server listened again; %d requests, %d connect errors, %d back-offs", resumed.Round(time.Millisecond), g.Requests, g.Errors[results.ErrConnect].Count, g.Backoffs)
	if g.Backoffs == 0 {
		t.Errorf("Backoffs = 0, want > 0 after %d connect errors", g.Errors[results.ErrConnect].Count)
	}
	if got := g.Errors[results.ErrConnect].Count; got < slots*backoffAfter {
		t.Errorf("connect errors = %d, want ≥ %d", got, slots*backoffAfter)
	}
	// Every slot connected again since, which ended its back-off (the
	// cancellation fails at most one more connect per slot).
	for i, s := range e.slots {
		if s.backoff != 0 || s.connFails >= backoffAfter {
			t.Errorf("slot %d: back-off %s after %d failed connects in a row; want none after its connects succeeded again", i, s.backoff, s.connFails)
		}
	}
}
