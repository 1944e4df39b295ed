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
	"flag"
	"fmt"
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

	var addrs []*unix.SockaddrInet4
	var served atomic.Int64
	for range *ports {
		addr, err := listen(&served)
		if err != nil {
			fail(err)
		}
		addrs = append(addrs, addr)
	}
	port := addrs[0].Port
	fmt.Printf("server pid %d, ports %d to %d; tcp_max_tw_buckets %s, ip_local_port_range %s\n",
		os.Getpid(), port, addrs[len(addrs)-1].Port, sysctl("net/ipv4/tcp_max_tw_buckets"), sysctl("net/ipv4/ip_local_port_range"))
	fmt.Printf("%9s %8s | %-26s | %-9s %-9s %-9s %-9s %-9s %-9s | %-11s %s\n", "TIME_WAIT", "made/s", "one reading: median p99 max",
		"counters", "CPU", "=stat", "+tree", "listener", "walk", "old lookup", "old/new")

	start := time.Now()
	var made atomic.Int64
	for _, target := range targets {
		t0, m0 := time.Now(), made.Load()
		reached := connect(addrs, *conns, target, start.Add(*budget), &made, &served)
		rate := float64(made.Load()-m0) / time.Since(t0).Seconds()
		r := measure(port, *readings, *oldRuns)
		fmt.Printf("%9d %8.0f | %8s %8s %8s | %-9s %-9s %-9s %-9s %-9s %-9s | %-11s %s\n", reached, rate,
			ms(med(r.reading)), ms(pct(r.reading, 0.99)), ms(r.reading[len(r.reading)-1]),
			ms(med(r.counters)), ms(med(r.cpu)), ms(med(r.stat)), ms(med(r.tree)), ms(med(r.find)), ms(med(r.walk)), old(r.old), ratio(r.old, r.reading))
		if r.err != nil {
			fmt.Println("  error:", r.err)
		}
		if reached < target {
			fmt.Printf("  stopped at %d TIME_WAIT sockets, short of %d (the budget of %s or tcp_max_tw_buckets)\n", reached, target, *budget)
			break
		}
	}
	fmt.Printf("TIME_WAIT at the end: %d, %s after the first connection\n", timeWait(), time.Since(start).Round(time.Second))
}

// listen opens a listening socket on 127.0.0.1 whose connections are
// closed as soon as they are accepted (the server closes first), by two
// goroutines blocked in accept; each close is counted in served.
func listen(served *atomic.Int64) (*unix.SockaddrInet4, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return nil, err
	}
	if err := unix.Listen(fd, 4096); err != nil {
		return nil, err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return nil, err
	}
	for range 2 {
		go func() {
			for {
				c, _, err := unix.Accept4(fd, unix.SOCK_CLOEXEC)
				if err != nil {
					continue
				}
				unix.Close(c)
				served.Add(1)
			}
		}()
	}
	return sa.(*unix.SockaddrInet4), nil
}

// connect makes connections until the namespace holds target sockets in
// TIME_WAIT or the deadline passes, and returns the count reached: conns
// goroutines open batches, wait for the server to close them, then close.
func connect(addrs []*unix.SockaddrInet4, conns, target int, deadline time.Time, made, served *atomic.Int64) int {
	const batch = 256
	var stop atomic.Bool
	var wg sync.WaitGroup
	var closed atomic.Int64 // client ends closed, in all
	for g := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
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
				// many as were opened in all.
				want := closed.Load() + int64(len(fds))
				for served.Load() < want && !stop.Load() {
					time.Sleep(time.Millisecond)
				}
				for _, fd := range fds {
					unix.Close(fd)
				}
				closed.Add(int64(len(fds)))
				made.Add(int64(len(fds)))
				if len(fds) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		}()
	}
	n := timeWait()
	for n < target && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
		n = timeWait()
	}
	stop.Store(true)
	wg.Wait()
	return timeWait()
}

type result struct {
	reading, counters, cpu, stat, tree, find, walk, old []time.Duration
	err                                                 error
}

// measure times r readings (counters + CPU + the remembered listener
// lookup), each part alone, the lookup that walks /proc, and the old one.
func measure(port, r, oldRuns int) result {
	var res result
	l := &cpustat.Listener{Port: port}
	if _, err := l.Find(); err != nil {
		res.err = err
	}
	timeIt := func(dst *[]time.Duration, f func() error) {
		t := time.Now()
		if err := f(); err != nil && res.err == nil {
			res.err = err
		}
		*dst = append(*dst, time.Since(t))
	}
	counters := func() error {
		s := cpustat.ReadTCPCounters()
		if len(s.Unavailable) > 0 {
			return fmt.Errorf("counters not available: %v", s.Unavailable)
		}
		return nil
	}
	cpu := func() error {
		if _, err := cpustat.SampleCPUs(nil); err != nil {
			return err
		}
		_, err := cpustat.SampleTree(os.Getpid())
		return err
	}
	find := func() error {
		pid, err := l.Find()
		if err == nil && pid != os.Getpid() {
			err = fmt.Errorf("listener found: pid %d, want %d", pid, os.Getpid())
		}
		return err
	}
	for range r {
		timeIt(&res.reading, func() error {
			if err := counters(); err != nil {
				return err
			}
			if err := cpu(); err != nil {
				return err
			}
			return find()
		})
		timeIt(&res.counters, counters)
		timeIt(&res.cpu, cpu)
		timeIt(&res.stat, func() error { _, err := cpustat.SampleCPUs(nil); return err })
		timeIt(&res.tree, func() error { _, err := cpustat.SampleTree(os.Getpid()); return err })
		timeIt(&res.find, find)
		timeIt(&res.walk, func() error { _, err := cpustat.FindListener(port); return err })
	}
	for range oldRuns {
		timeIt(&res.old, func() error { return oldLookup(port) })
	}
	for _, d := range [][]time.Duration{res.reading, res.counters, res.cpu, res.stat, res.tree, res.find, res.walk, res.old} {
		slices.Sort(d)
	}
	return res
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

func med(d []time.Duration) time.Duration { return pct(d, 0.5) }

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(int(p*float64(len(d))), len(d)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3fms", d.Seconds()*1e3) }

func old(d []time.Duration) string {
	if len(d) == 0 {
		return "skipped"
	}
	return ms(med(d))
}

func ratio(old, reading []time.Duration) string {
	if len(old) == 0 || len(reading) == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f×", med(old).Seconds()/med(reading).Seconds())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tcpcounters:", err)
	os.Exit(1)
}
