//go:build linux

package engine

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sockInfo is a slot's TCP_INFO buffer: one raw getsockopt per
// connection, just before the client closes it, into memory the slot
// owns, so that reading it allocates nothing and takes no lock.
type sockInfo struct {
	info unix.TCPInfo
	n    uint32
	ok   bool
	read func(fd uintptr) // readFD, bound once (a method value made per call would allocate)
}

func (si *sockInfo) init() { si.read = si.readFD }

// readFD reads fd's TCP_INFO into si.info; si.ok says whether it worked.
func (si *sockInfo) readFD(fd uintptr) {
	si.n = uint32(unsafe.Sizeof(si.info))
	_, _, e := syscall.Syscall6(syscall.SYS_GETSOCKOPT, fd, syscall.IPPROTO_TCP, syscall.TCP_INFO,
		uintptr(unsafe.Pointer(&si.info)), uintptr(unsafe.Pointer(&si.n)), 0)
	si.ok = e == 0 && si.n >= uint32(unsafe.Offsetof(si.info.Total_retrans)+4)
}

// noteSocket reads the slot's open connection's TCP_INFO into its
// attempt: the segments it retransmitted, and whether the peer reset it
// (its state CLOSE while the client still holds it).
func (s *slot) noteSocket() {
	rc, err := s.raw.SyscallConn()
	if err != nil || rc.Control(s.si.read) != nil || !s.si.ok {
		return
	}
	a := &s.att
	a.sockRead, a.retrans, a.reset = true, s.si.info.Total_retrans, s.si.info.State == unix.BPF_TCP_CLOSE
}
