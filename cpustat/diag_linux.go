//go:build linux

package cpustat

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"
)

// Sizes and offsets of the kernel's sock_diag structures
// (linux/inet_diag.h): a request is a netlink header and an
// inet_diag_req_v2; each answer a netlink header and an inet_diag_msg.
const (
	diagReqLen     = unix.SizeofNlMsghdr + 56 // inet_diag_req_v2: 8 bytes, then inet_diag_sockid (48)
	diagMsgLen     = 72                       // inet_diag_msg
	diagMsgSport   = 4                        // id.idiag_sport, big-endian
	diagMsgInode   = 68                       // idiag_inode
	tcpStateListen = 10                       // TCP_LISTEN
	diagReqStates  = unix.SizeofNlMsghdr + 4  // idiag_states
	diagReqSport   = unix.SizeofNlMsghdr + 8  // id.idiag_sport
)

// diagListening returns the inodes of the TCP sockets listening on port
// in the calling thread's network namespace, IPv4 and IPv6, asked of the
// kernel through sock_diag (NETLINK_SOCK_DIAG, as `ss -lt` does). Asked
// for listening sockets only, the kernel walks its listening hash alone,
// so the cost does not grow with the sockets in TIME_WAIT. (Reading the
// head of /proc/net/tcp6 does grow with them: to print its first
// non-listening line the kernel walks past every IPv4 socket.)
func diagListening(port int, buf []byte) ([]uint64, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	var inodes []uint64
	for seq, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		var req [diagReqLen]byte
		binary.NativeEndian.PutUint32(req[0:], diagReqLen)
		binary.NativeEndian.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
		binary.NativeEndian.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
		binary.NativeEndian.PutUint32(req[8:], uint32(seq+1))
		req[unix.SizeofNlMsghdr] = family
		req[unix.SizeofNlMsghdr+1] = unix.IPPROTO_TCP
		binary.NativeEndian.PutUint32(req[diagReqStates:], 1<<tcpStateListen)
		binary.BigEndian.PutUint16(req[diagReqSport:], uint16(port)) // the kernel filters listeners by it
		if err := unix.Sendto(fd, req[:], 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
			return nil, fmt.Errorf("sock_diag: %w", err)
		}
		inodes, err = diagReceive(fd, buf, port, inodes)
		if err == unix.ENOENT && family == unix.AF_INET6 {
			continue // no IPv6 in this kernel: no IPv6 listeners
		}
		if err != nil {
			return nil, fmt.Errorf("sock_diag (family %d): %w", family, err)
		}
	}
	return inodes, nil
}

// diagReceive reads one dump's answers up to NLMSG_DONE, appending the
// inode of each socket listening on port.
func diagReceive(fd int, buf []byte, port int, inodes []uint64) ([]uint64, error) {
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return inodes, err
		}
		for b := buf[:n]; len(b) >= unix.SizeofNlMsghdr; {
			l := int(binary.NativeEndian.Uint32(b[0:]))
			if l < unix.SizeofNlMsghdr || l > len(b) {
				return inodes, fmt.Errorf("a netlink message of %d bytes in %d", l, len(b))
			}
			msg := b[unix.SizeofNlMsghdr:l]
			switch binary.NativeEndian.Uint16(b[4:]) {
			case unix.NLMSG_DONE:
				return inodes, nil
			case unix.NLMSG_ERROR:
				if len(msg) < 4 {
					return inodes, fmt.Errorf("a short netlink error")
				}
				if e := int32(binary.NativeEndian.Uint32(msg)); e != 0 {
					return inodes, unix.Errno(-e)
				}
			case unix.SOCK_DIAG_BY_FAMILY:
				if len(msg) >= diagMsgLen && msg[1] == tcpStateListen &&
					int(binary.BigEndian.Uint16(msg[diagMsgSport:])) == port {
					if ino := binary.NativeEndian.Uint32(msg[diagMsgInode:]); ino != 0 {
						inodes = append(inodes, uint64(ino))
					}
				}
			}
			b = b[min((l+unix.NLMSG_ALIGNTO-1)&^(unix.NLMSG_ALIGNTO-1), len(b)):]
		}
	}
}
