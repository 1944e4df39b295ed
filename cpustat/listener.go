package cpustat

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
)

// FindListener returns the PID of the root of the family listening on TCP port (nginx's master:
// parents running the same executable, below PID 1); none, unseen or unrelated ones are errors.
func FindListener(port int) (int, error) { return (&Listener{Port: port}).Find() }

// Listener is FindListener that remembers: it reads the listening sockets alone (cheap with any
// TIME_WAIT count), walks /proc when they changed or the root is gone. Not for concurrent use.
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
		inodes, _, err = diagListening(l.Port, l.buf)
	}
	if l.netDir != "" || err != nil {
		if inodes, err = l.procListening(); err != nil {
			return nil, err
		}
	}
	slices.Sort(inodes)
	return slices.Compact(inodes), nil
}

// diagReceiveSize is the buffer a sock_diag answer is read into; the
// kernel sends what does not fit in the next read.
const diagReceiveSize = 32 << 10

// procListening reads the listening sockets of l.Port from tcp and tcp6
// under l.netDir; a missing tcp6 (IPv6 off) is no error.
func (l *Listener) procListening() ([]uint64, error) {
	dir := cmp.Or(l.netDir, "/proc/net")
	want := []byte(fmt.Sprintf(":%04X", l.Port))
	var inodes []uint64
	for _, name := range []string{"tcp", "tcp6"} {
		file, err := os.Open(dir + "/" + name)
		if name == "tcp6" && errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(l.buf[:8<<10], 8<<10)
		sc.Scan() // the header
		for sc.Scan() {
			f := bytes.Fields(sc.Bytes()) // local address, state ("0A" listens) and inode: fields 1, 3 and 9
			if len(f) < 10 || string(f[3]) != "0A" && string(f[3]) != "03" {
				break // listeners come first, among them SYN_RECV (03) before Linux 4.4
			}
			ino, err := strconv.ParseUint(string(f[9]), 10, 64)
			if string(f[3]) == "0A" && bytes.HasSuffix(f[1], want) && err == nil && ino != 0 {
				inodes = append(inodes, ino)
			}
		}
		file.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", dir, name, err)
		}
	}
	return inodes, nil
}

// socketHolders returns, sorted, the processes with a descriptor of any
// of the sockets inodes; one it may not read, or that exited, holds none.
func socketHolders(inodes []uint64) ([]int, error) {
	pids, err := process.Pids()
	if err != nil {
		return nil, err
	}
	holds := func(f process.OpenFilesStat) bool {
		v, ok := strings.CutPrefix(f.Path, "socket:[") // "socket:[12345]"
		ino, err := strconv.ParseUint(strings.TrimSuffix(v, "]"), 10, 64)
		_, found := slices.BinarySearch(inodes, ino)
		return ok && err == nil && found
	}
	var holders []int
	for _, pid := range pids {
		if files, _ := (&process.Process{Pid: pid}).OpenFiles(); slices.ContainsFunc(files, holds) {
			holders = append(holders, int(pid))
		}
	}
	slices.Sort(holders)
	return holders, nil
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

// familyRoot climbs from pid through parents that run the same executable, stopping below PID 1.
func familyRoot(pid int) int {
	for {
		p := &process.Process{Pid: int32(pid)}
		ppid, err := p.Ppid()
		if err != nil || ppid <= 1 || !sameExecutable(p, &process.Process{Pid: ppid}) {
			return pid
		}
		pid = int(ppid)
	}
}

// sameExecutable compares executable paths, or the process names when a path cannot be read.
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
