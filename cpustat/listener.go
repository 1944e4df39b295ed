package cpustat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
)

// FindListener returns the PID of the root of the process family
// listening on TCP port (nginx's master: parents running the same
// executable, below PID 1). Nothing, an unseen or unrelated holders are errors.
func FindListener(port int) (int, error) {
	l := Listener{Port: port}
	return l.Find()
}

// Listener is FindListener that remembers: it reads the listening
// sockets alone (cheap with any TIME_WAIT count) and walks /proc only when
// they changed or the root is gone. Not safe for concurrent use.
type Listener struct {
	Port int

	netDir  string   // "": ask sock_diag; else read tcp and tcp6 there
	inodes  []uint64 // the listening sockets at the last walk, sorted
	root    procKey  // the family root found then (pid 0: none)
	holders []int    // the processes found holding inodes then, sorted
	buf     []byte
}

// Holders returns the processes that held the listening sockets when
// Find last walked /proc, sorted.
func (l *Listener) Holders() []int { return slices.Clone(l.holders) }

// Find is FindListener(l.Port).
func (l *Listener) Find() (int, error) {
	port := l.Port
	if port <= 0 || port > 65535 {
		return 0, fmt.Errorf("find listener on port %d: not a TCP port", port)
	}
	inodes, err := l.listening()
	if err != nil {
		return 0, fmt.Errorf("find listener on port %d: %w", port, err)
	}
	if len(inodes) == 0 {
		l.forget()
		return 0, fmt.Errorf("find listener on port %d: nothing listens on it", port)
	}
	if l.root.pid != 0 && slices.Equal(inodes, l.inodes) {
		if st, err := readProcStat(l.root.pid); err == nil && st.key == l.root && st.state != 'Z' && st.state != 'X' {
			return l.root.pid, nil // the same sockets, and their owner lives
		}
	}
	l.forget()
	holders, err := socketHolders(inodes)
	if err != nil {
		return 0, fmt.Errorf("find listener on port %d: %w", port, err)
	}
	roots := familyRoots(holders)
	switch {
	case len(roots) == 0:
		return 0, fmt.Errorf("find listener on port %d: its process is not visible (run as root or as the server's user)", port)
	case len(roots) > 1:
		return 0, fmt.Errorf("find listener on port %d: unrelated processes %v listen on it", port, roots)
	}
	st, err := readProcStat(roots[0])
	if err == nil {
		l.inodes, l.root, l.holders = inodes, st.key, holders
	}
	return roots[0], nil
}

func (l *Listener) forget() { l.inodes, l.root, l.holders = nil, procKey{}, nil }

// listening returns the sorted inodes of the sockets listening on
// l.Port, from sock_diag or, when that fails, /proc/net/tcp and tcp6.
func (l *Listener) listening() ([]uint64, error) {
	if l.buf == nil {
		l.buf = make([]byte, diagReceiveSize)
	}
	var inodes []uint64
	var err error
	if l.netDir == "" {
		inodes, err = diagListening(l.Port, l.buf)
	}
	if l.netDir != "" || err != nil {
		if inodes, err = l.procListening(); err != nil {
			return nil, err
		}
	}
	slices.Sort(inodes)
	return slices.Compact(inodes), nil
}

// procListening reads the listening sockets of l.Port from tcp and tcp6
// under l.netDir; a missing tcp6 (IPv6 off) is no error.
func (l *Listener) procListening() ([]uint64, error) {
	dir := l.netDir
	if dir == "" {
		dir = "/proc/net"
	}
	var inodes []uint64
	for _, name := range []string{"tcp", "tcp6"} {
		f, err := os.Open(dir + "/" + name)
		if err != nil {
			if name == "tcp6" && errors.Is(err, os.ErrNotExist) {
				continue
			}
			return nil, err
		}
		inodes, err = listenInodes(f, l.buf[:8<<10], l.Port, inodes)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", dir, name, err)
		}
	}
	return inodes, nil
}

// diagReceiveSize is the buffer a sock_diag answer is read into; the
// kernel sends what does not fit in the next read.
const diagReceiveSize = 32 << 10

// Socket states in /proc/net/tcp's st column.
const (
	tcpListen  = "0A"
	tcpSynRecv = "03"
)

// listenInodes appends the inode of each socket listening on port in r
// (/proc/net/tcp). Listeners come first, so it stops at the first other
// state (but SYN_RECV, listed among them before Linux 4.4).
func listenInodes(r io.Reader, buf []byte, port int, inodes []uint64) ([]uint64, error) {
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(r)
	sc.Buffer(buf, len(buf))
	sc.Scan() // the header
	for sc.Scan() {
		ino, state, ok := parseTCPLine(sc.Bytes(), want)
		switch {
		case state != tcpListen && state != tcpSynRecv:
			return inodes, nil
		case ok:
			inodes = append(inodes, ino)
		}
	}
	return inodes, sc.Err()
}

// parseTCPLine reads one /proc/net/tcp line: its state, and its inode
// when it listens on the local port whose ":%04X" form is want.
func parseTCPLine(line []byte, want string) (ino uint64, state string, ok bool) {
	var f [10][]byte
	rest := line
	for i := range f {
		if f[i], rest = nextField(rest); len(f[i]) == 0 {
			return 0, "", false
		}
	}
	switch string(f[3]) { // no allocation: the conversion is only compared
	case tcpListen:
		state = tcpListen
	case tcpSynRecv:
		return 0, tcpSynRecv, false
	default:
		return 0, "other", false
	}
	if !bytes.HasSuffix(f[1], []byte(want)) {
		return 0, state, false
	}
	ino, ok = parseUint(f[9])
	return ino, state, ok && ino != 0
}

// parseUint parses decimal digits without allocating.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// socketHolders returns, sorted, the processes with a descriptor of any
// of the sockets inodes, from the /proc/PID/fd links it may read.
func socketHolders(inodes []uint64) ([]int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	var holders []int
	link := make([]byte, 64)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if holdsSocket(pid, inodes, link) {
			holders = append(holders, pid)
		}
	}
	slices.Sort(holders)
	return holders, nil
}

// holdsSocket says whether process pid has a descriptor of one of the
// sockets inodes; one it may not read, or that exited, holds none.
func holdsSocket(pid int, inodes []uint64, link []byte) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	d, err := os.Open(dir)
	if err != nil {
		return false
	}
	fds, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return false
	}
	for _, fd := range fds {
		n, err := syscall.Readlink(dir+fd, link)
		if err != nil || n >= len(link) {
			continue
		}
		v, ok := bytes.CutPrefix(link[:n], []byte("socket:[")) // "socket:[12345]"
		if !ok {
			continue
		}
		v, ok = bytes.CutSuffix(v, []byte("]"))
		if !ok {
			continue
		}
		if ino, ok := parseUint(v); ok {
			if _, found := slices.BinarySearch(inodes, ino); found {
				return true
			}
		}
	}
	return false
}

// familyRoots returns the family roots of pids, sorted.
func familyRoots(pids []int) []int {
	var roots []int
	for _, pid := range pids {
		roots = append(roots, familyRoot(pid))
	}
	slices.Sort(roots)
	return slices.Compact(roots)
}

// familyRoot climbs from pid through parents that run the same executable,
// stopping below PID 1.
func familyRoot(pid int) int {
	for {
		p, err := process.NewProcess(int32(pid))
		if err != nil {
			return pid
		}
		ppid, err := p.Ppid()
		if err != nil || ppid <= 1 {
			return pid
		}
		parent, err := process.NewProcess(ppid)
		if err != nil {
			return pid
		}
		if !sameExecutable(p, parent) {
			return pid
		}
		pid = int(ppid)
	}
}

// sameExecutable compares executable paths, or the process names when a
// path cannot be read.
func sameExecutable(a, b *process.Process) bool {
	ea, errA := a.Exe()
	eb, errB := b.Exe()
	if errA == nil && errB == nil {
		return ea == eb
	}
	na, errA := a.Name()
	nb, errB := b.Name()
	return errA == nil && errB == nil && na == nb
}
