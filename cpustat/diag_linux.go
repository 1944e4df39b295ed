//go:build linux

package cpustat

import (
	"encoding/binary"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// Offsets in sock_diag's request (netlink header + inet_diag_req_v2)
// and answer (inet_diag_msg), from linux/inet_diag.h.
const (
	diagReqLen     = unix.SizeofNlMsghdr + 56 // inet_diag_req_v2: 8 bytes, then inet_diag_sockid (48)
	diagMsgLen     = 72                       // inet_diag_msg
	diagMsgSport   = 4                        // id.idiag_sport, big-endian
	diagMsgInode   = 68                       // idiag_inode
	tcpStateListen = 10                       // TCP_LISTEN
	diagReqStates  = unix.SizeofNlMsghdr + 4  // idiag_states
	diagReqSport   = unix.SizeofNlMsghdr + 8  // id.idiag_sport
)

// diagDump asks sock_diag for the TCP sockets of both families in states
// (a bit mask), with source port sport when not 0 and extensions ext. It
// calls each with a socket's inet_diag_msg (ext 0), then per attribute.
func diagDump(sport int, states uint32, ext uint8, buf []byte, each func(msg []byte, ext uint16, attr []byte)) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	if buf == nil {
		buf = make([]byte, diagReceiveSize)
	}
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

// diagEach reads one dump's answers up to NLMSG_DONE (see diagDump).
func diagEach(fd int, buf []byte, each func(msg []byte, ext uint16, attr []byte)) error {
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return fmt.Errorf("sock_diag's answer: %w", err)
		}
		for _, m := range msgs {
			msg := m.Data
			switch m.Header.Type {
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
		}
	}
}
