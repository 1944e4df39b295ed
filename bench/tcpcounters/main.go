// Command tcpcounters times what kaeload reads from a host at every
// interval boundary (the TCP counters, /proc/stat, the server's process
// tree, the listener lookup) while the host holds many sockets in
// TIME_WAIT, beside the gopsutil lookup used before. It is the server and
// closes first, so TIME_WAIT lands on its side.
//
//	tcpcounters -at 2000,250000 -ports 16 -r 200
//
// Run it through bench/tcpcounters.sh, in a network namespace of its own.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gnet "github.com/shirou/gopsutil/v4/net"
	"golang.org/x/sys/unix"

	"github.com/kaeload/kaeload/cpustat"
	"github.com/kaeload/kaeload/ports"
)

func main() {
	at := flag.String("at", "2000,250000", "TIME_WAIT counts to measure at, ascending")
	ports := flag.Int("ports", 16, "listening ports (each gives the clients one ephemeral port range; connect(2) uses its even half first)")
	conns := flag.Int("c", 1, "connecting goroutines (above 1, a few connections may be closed by the client first)")
	readings := flag.Int("r", 200, "readings timed at each count")
	oldRuns := flag.Int("old", 3, "runs of the old lookup at each count (0: skip it)")
	budget := flag.Duration("budget", 45*time.Second, "stop making connections after this long (TIME_WAIT lasts 60 s)")
	flag.Parse()
	var targets []int
	for _, s := range strings.Split(*at, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			fail(fmt.Errorf("-at %q: want positive counts", *at))
		}
		targets = append(targets, n)
	}
	slices.Sort(targets)

	// The server: two goroutines per port accept and close at once (the
	// server closes first), counting each close in served.
	var addrs []*unix.SockaddrInet4
	var served atomic.Int64
	for range *ports {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fail(err)
		}
		for range 2 {
			go func() {
				for {
					if c, err := ln.Accept(); err == nil {
						c.Close()
						served.Add(1)
					}
				}
			}()
		}
		addrs = append(addrs, &unix.SockaddrInet4{Port: ln.Addr().(*net.TCPAddr).Port, Addr: [4]byte{127, 0, 0, 1}})
	}
	port := addrs[0].Port
	fmt.Printf("server pid %d, ports %d to %d; tcp_max_tw_buckets %s, ip_local_port_range %s\n",
		os.Getpid(), port, addrs[len(addrs)-1].Port, sysctl("net/ipv4/tcp_max_tw_buckets"), sysctl("net/ipv4/ip_local_port_range"))
	fmt.Printf("%9s %8s | %-26s | ", "TIME_WAIT", "made/s", "one reading: median p99 max")
	for _, name := range []string{"counters", "CPU", "=stat", "+tree", "listener", "walk"} {
		fmt.Printf("%-9s ", name)
	}
	fmt.Printf("| %-11s %s\n", "old lookup", "old/new")

	start := time.Now()
	var made atomic.Int64
	for _, target := range targets {
		t0, m0 := time.Now(), made.Load()
		reached := connect(addrs, *conns, target, start.Add(*budget), &made, &served)
		rate := float64(made.Load()-m0) / time.Since(t0).Seconds()
		times, err := measure(port, *readings, *oldRuns)
		read, old := times[0], times[len(times)-1]
		fmt.Printf("%9d %8.0f | %8s %8s %8s | ", reached, rate, ms(read, 0.5), ms(read, 0.99), ms(read, 1))
		for _, d := range times[1 : len(times)-1] {
			fmt.Printf("%-9s ", ms(d, 0.5))
		}
		oldCell, ratio := "skipped", ""
		if len(old) > 0 {
			oldCell, ratio = ms(old, 0.5), fmt.Sprintf("%.0f×", pct(old, 0.5).Seconds()/pct(read, 0.5).Seconds())
		}
		fmt.Printf("| %-11s %s\n", oldCell, ratio)
		if err != nil {
			fmt.Println("  error:", err)
		}
		if reached < target {
			fmt.Printf("  stopped at %d TIME_WAIT sockets, short of %d (the budget of %s or tcp_max_tw_buckets)\n", reached, target, *budget)
			break
		}
	}
	fmt.Printf("TIME_WAIT at the end: %d, %s after the first connection\n", timeWait(), time.Since(start).Round(time.Second))
}

// connect makes connections until the namespace holds target sockets in
// TIME_WAIT or the deadline passes, and returns the count reached: conns
// goroutines open batches, wait for the server to close them, then close.
func connect(addrs []*unix.SockaddrInet4, conns, target int, deadline time.Time, made, served *atomic.Int64) int {
	const batch = 256
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := range conns {
		wg.Go(func() {
			fds := make([]int, 0, batch)
			for i := g; !stop.Load(); {
				fds = fds[:0]
				for range batch {
					fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
					if err != nil {
						break
					}
					if err := unix.Connect(fd, addrs[i%len(addrs)]); err != nil {
						unix.Close(fd) // out of ports for a moment
						break
					}
					fds = append(fds, fd)
					i++
				}
				// The server closes first: wait until it has closed as
				// many as were made in all, these included.
				for want := made.Load() + int64(len(fds)); served.Load() < want && !stop.Load(); {
					time.Sleep(time.Millisecond)
				}
				for _, fd := range fds {
					unix.Close(fd)
				}
				made.Add(int64(len(fds)))
				if len(fds) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	for time.Now().Before(deadline) && timeWait() < target {
		time.Sleep(2 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	return timeWait()
}

// measure times r readings and each part of one, then oldRuns old lookups:
// each column's durations, sorted.
func measure(port, r, oldRuns int) ([][]time.Duration, error) {
	pid := os.Getpid()
	l := &cpustat.Listener{Port: port}
	_, firstErr := l.Find()
	counters := func() error {
		if s := cpustat.ReadTCPCounters(); len(s.Unavailable) > 0 {
			return fmt.Errorf("counters not available: %v", s.Unavailable)
		}
		return nil
	}
	stat := func() error { _, err := cpustat.SampleCPUs(nil); return err }
	tree := func() error { _, err := cpustat.SampleTree(pid); return err }
	find := func() error {
		got, err := l.Find()
		if err == nil && got != pid {
			err = fmt.Errorf("listener found: pid %d, want %d", got, pid)
		}
		return err
	}
	walk := func() error { _, err := cpustat.FindListener(port); return err }
	parts := []func() error{
		func() error { return cmp.Or(counters(), stat(), tree(), find()) },
		counters, func() error { return cmp.Or(stat(), tree()) }, stat, tree, find, walk,
		func() error { return oldLookup(port) },
	}
	times := make([][]time.Duration, len(parts))
	timeIt := func(i int) {
		t := time.Now()
		if err := parts[i](); err != nil && firstErr == nil {
			firstErr = err
		}
		times[i] = append(times[i], time.Since(t))
	}
	for range r {
		for i := range len(parts) - 1 {
			timeIt(i)
		}
	}
	for range oldRuns {
		timeIt(len(parts) - 1)
	}
	for _, d := range times {
		slices.Sort(d)
	}
	return times, firstErr
}

// oldLookup is FindListener before issue 21: gopsutil's list of every
// TCP socket with its process, filtered for the port's listener.
func oldLookup(port int) error {
	conns, err := gnet.Connections("tcp")
	if err != nil {
		return err
	}
	for _, c := range conns {
		if c.Status == "LISTEN" && c.Laddr.Port == uint32(port) && int(c.Pid) == os.Getpid() {
			return nil
		}
	}
	return fmt.Errorf("old lookup: no listener on port %d", port)
}

// timeWait is the namespace's TIME_WAIT count.
func timeWait() int {
	n, err := ports.TimeWait()
	if err != nil {
		fail(err)
	}
	return n
}

func sysctl(name string) string {
	b, err := os.ReadFile("/proc/sys/" + name)
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// pct is the p quantile of the sorted d (1: the largest).
func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(int(p*float64(len(d))), len(d)-1)]
}

func ms(d []time.Duration, p float64) string { return fmt.Sprintf("%.3fms", pct(d, p).Seconds()*1e3) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tcpcounters:", err)
	os.Exit(1)
}
