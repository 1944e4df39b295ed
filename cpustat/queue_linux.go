//go:build linux

package cpustat

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"golang.org/x/sys/unix"
)

// More of the kernel's sock_diag layout (linux/inet_diag.h,
// linux/sock_diag.h).
const (
	diagReqExt       = unix.SizeofNlMsghdr + 2 // idiag_ext: the extensions asked for
	diagMsgDport     = 6                       // id.idiag_dport, big-endian
	diagMsgDst       = 24                      // id.idiag_dst, 16 bytes
	diagMsgRqueue    = 56                      // idiag_rqueue
	diagMsgWqueue    = 60                      // idiag_wqueue
	diagExtSkMemInfo = 7                       // INET_DIAG_SKMEMINFO: u32 sk_meminfo[SK_MEMINFO_VARS]
	skMemInfoDrops   = 8                       // SK_MEMINFO_DROPS
	tcpStateTimeWait = 6                       // TCP_TIME_WAIT
)

// ReadListenQueue reads the sockets listening on TCP port in this
// process's network namespace (sock_diag): their accept queue, backlog
// and drops. Asked for listeners of one port, the kernel walks its
// listening hash alone, so the cost does not grow with the connections.
// No socket listening is no error (Sockets 0).
func ReadListenQueue(port int) (ListenQueue, error) {
	var q ListenQueue
	drops := 0
	err := diagDump(port, 1<<tcpStateListen, 1<<(diagExtSkMemInfo-1), func(msg []byte, ext uint16, attr []byte) {
		if ext == 0 {
			if msg[1] != tcpStateListen || int(binary.BigEndian.Uint16(msg[diagMsgSport:])) != port {
				return
			}
			q.Sockets++
			q.Queue += uint64(binary.NativeEndian.Uint32(msg[diagMsgRqueue:]))
			q.Backlog += uint64(binary.NativeEndian.Uint32(msg[diagMsgWqueue:]))
			return
		}
		if ext == diagExtSkMemInfo && len(attr) >= 4*(skMemInfoDrops+1) {
			q.Drops += uint64(binary.NativeEndian.Uint32(attr[4*skMemInfoDrops:]))
			drops++
		}
	})
	q.DropsKnown = q.Sockets > 0 && drops == q.Sockets
	if err != nil {
		return ListenQueue{}, fmt.Errorf("read the listen queue of port %d: %w", port, err)
	}
	return q, nil
}

// CountTimeWait counts the TCP sockets in TIME_WAIT in this process's
// network namespace whose peer is dst: a client's connections to a
// server that the client closed first, each holding a local port for 60
// s (sock_diag; the kernel lists every socket in TIME_WAIT, and the
// count picks those to dst).
func CountTimeWait(dst netip.AddrPort) (int, error) {
	n := 0
	want := dst.Addr().Unmap().As16()
	v4 := dst.Addr().Unmap().Is4()
	err := diagDump(0, 1<<tcpStateTimeWait, 0, func(msg []byte, ext uint16, _ []byte) {
		if ext != 0 || msg[1] != tcpStateTimeWait || binary.BigEndian.Uint16(msg[diagMsgDport:]) != dst.Port() {
			return
		}
		var got [16]byte
		if msg[0] == unix.AF_INET {
			if !v4 {
				return
			}
			a := netip.AddrFrom4([4]byte(msg[diagMsgDst : diagMsgDst+4]))
			got = a.As16()
		} else {
			got = netip.AddrFrom16([16]byte(msg[diagMsgDst : diagMsgDst+16])).Unmap().As16()
		}
		if got == want {
			n++
		}
	})
	if err != nil {
		return 0, fmt.Errorf("count TIME_WAIT sockets to %s: %w", dst, err)
	}
	return n, nil
}

// diagDump asks sock_diag for the TCP sockets in states (a bit mask of
// TCP states) of both families, listeners filtered by sport when not 0,
// with the extensions ext (a bit mask), and calls each with every
// socket: once with its inet_diag_msg (ext 0), then once per extension
// attribute (ext its type, attr its payload).
func diagDump(sport int, states uint32, ext uint8, each func(msg []byte, ext uint16, attr []byte)) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	buf := make([]byte, diagReceiveSize)
	for seq, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		var req [diagReqLen]byte
		binary.NativeEndian.PutUint32(req[0:], diagReqLen)
		binary.NativeEndian.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
		binary.NativeEndian.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
		binary.NativeEndian.PutUint32(req[8:], uint32(seq+1))
		req[unix.SizeofNlMsghdr] = family
		req[unix.SizeofNlMsghdr+1] = unix.IPPROTO_TCP
		req[diagReqExt] = ext
		binary.NativeEndian.PutUint32(req[diagReqStates:], states)
		binary.BigEndian.PutUint16(req[diagReqSport:], uint16(sport))
		if err := unix.Sendto(fd, req[:], 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
			return fmt.Errorf("sock_diag: %w", err)
		}
		err := diagEach(fd, buf, each)
		if err == unix.ENOENT && family == unix.AF_INET6 {
			continue // no IPv6 in this kernel
		}
		if err != nil {
			return fmt.Errorf("sock_diag (family %d): %w", family, err)
		}
	}
	return nil
}

// diagEach reads one dump's answers up to NLMSG_DONE and hands each
// socket and its attributes to each (see diagDump).
func diagEach(fd int, buf []byte, each func(msg []byte, ext uint16, attr []byte)) error {
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		for b := buf[:n]; len(b) >= unix.SizeofNlMsghdr; {
			l := int(binary.NativeEndian.Uint32(b[0:]))
			if l < unix.SizeofNlMsghdr || l > len(b) {
				return fmt.Errorf("a netlink message of %d bytes in %d", l, len(b))
			}
			msg := b[unix.SizeofNlMsghdr:l]
			switch binary.NativeEndian.Uint16(b[4:]) {
			case unix.NLMSG_DONE:
				return nil
			case unix.NLMSG_ERROR:
				if len(msg) < 4 {
					return fmt.Errorf("a short netlink error")
				}
				if e := int32(binary.NativeEndian.Uint32(msg)); e != 0 {
					return unix.Errno(-e)
				}
			case unix.SOCK_DIAG_BY_FAMILY:
				if len(msg) >= diagMsgLen {
					each(msg, 0, nil)
					for a := msg[diagMsgLen:]; len(a) >= 4; {
						al := int(binary.NativeEndian.Uint16(a[0:]))
						if al < 4 || al > len(a) {
							break
						}
						each(msg, binary.NativeEndian.Uint16(a[2:]), a[4:al])
						a = a[min((al+3)&^3, len(a)):]
					}
				}
			}
			b = b[min((l+unix.NLMSG_ALIGNTO-1)&^(unix.NLMSG_ALIGNTO-1), len(b)):]
		}
	}
}
