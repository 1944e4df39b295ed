//go:build linux

package cpustat

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"golang.org/x/sys/unix"
)

// More of sock_diag's layout (linux/inet_diag.h, linux/sock_diag.h).
const (
	diagReqExt       = unix.SizeofNlMsghdr + 2 // idiag_ext: the extensions asked for
	diagMsgDport     = 6                       // id.idiag_dport, big-endian
	diagMsgDst       = 24                      // id.idiag_dst, 16 bytes
	diagMsgRqueue    = 56                      // idiag_rqueue
	diagMsgWqueue    = 60                      // idiag_wqueue
	diagExtSkMemInfo = 7                       // INET_DIAG_SKMEMINFO: u32 sk_meminfo[SK_MEMINFO_VARS]
	tcpStateTimeWait = 6                       // TCP_TIME_WAIT
)

// ReadListenQueue reads the listeners of TCP port in this network
// namespace through sock_diag (listeners only: cheap). None is no error.
func ReadListenQueue(port int) (ListenQueue, error) {
	_, q, err := diagListening(port, nil)
	if err != nil {
		return ListenQueue{}, fmt.Errorf("read the listen queue of port %d: %w", port, err)
	}
	return q, nil
}

// diagListening returns the inodes and queues of the TCP sockets
// listening on port (sock_diag: the kernel walks its listening hash alone).
func diagListening(port int, buf []byte) ([]uint64, ListenQueue, error) {
	var inodes []uint64
	var q ListenQueue
	drops := 0
	err := diagDump(port, 1<<tcpStateListen, 1<<(diagExtSkMemInfo-1), buf, func(msg []byte, ext uint16, attr []byte) {
		if ext == 0 && msg[1] == tcpStateListen && int(binary.BigEndian.Uint16(msg[diagMsgSport:])) == port {
			q.Sockets++
			q.Queue += uint64(binary.NativeEndian.Uint32(msg[diagMsgRqueue:]))
			q.Backlog += uint64(binary.NativeEndian.Uint32(msg[diagMsgWqueue:]))
			if ino := binary.NativeEndian.Uint32(msg[diagMsgInode:]); ino != 0 {
				inodes = append(inodes, uint64(ino))
			}
		} else if ext == diagExtSkMemInfo && len(attr) >= 4*(unix.SK_MEMINFO_DROPS+1) {
			q.Drops += uint64(binary.NativeEndian.Uint32(attr[4*unix.SK_MEMINFO_DROPS:]))
			drops++
		}
	})
	q.DropsKnown = q.Sockets > 0 && drops == q.Sockets
	return inodes, q, err
}

// CountTimeWait counts the TCP sockets in TIME_WAIT to dst in this
// network namespace: the ports a client that closed first holds for 60 s.
func CountTimeWait(dst netip.AddrPort) (int, error) {
	n := 0
	want := dst.Addr().Unmap().As16()
	err := diagDump(0, 1<<tcpStateTimeWait, 0, nil, func(msg []byte, ext uint16, _ []byte) {
		got := netip.AddrFrom16([16]byte(msg[diagMsgDst : diagMsgDst+16]))
		if msg[0] == unix.AF_INET {
			got = netip.AddrFrom4([4]byte(msg[diagMsgDst : diagMsgDst+4]))
		}
		port := binary.BigEndian.Uint16(msg[diagMsgDport:])
		if ext == 0 && msg[1] == tcpStateTimeWait && port == dst.Port() && got.Unmap().As16() == want {
			n++
		}
	})
	if err != nil {
		return 0, fmt.Errorf("count TIME_WAIT sockets to %s: %w", dst, err)
	}
	return n, nil
}
