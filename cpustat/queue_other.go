//go:build !linux

package cpustat

import "net/netip"

// ReadListenQueue needs Linux's sock_diag.
func ReadListenQueue(port int) (ListenQueue, error) { return ListenQueue{}, ErrUnsupported }

// CountTimeWait needs Linux's sock_diag.
func CountTimeWait(dst netip.AddrPort) (int, error) { return 0, ErrUnsupported }

// diagListening is Linux's sock_diag; elsewhere Listener falls back to
// /proc/net/tcp, which fails there too.
func diagListening(port int, buf []byte) ([]uint64, ListenQueue, error) {
	return nil, ListenQueue{}, ErrUnsupported
}
