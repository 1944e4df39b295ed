//go:build !linux

package cpustat

import "net/netip"

// ReadListenQueue needs Linux's sock_diag.
func ReadListenQueue(port int) (ListenQueue, error) { return ListenQueue{}, ErrUnsupported }

// CountTimeWait needs Linux's sock_diag.
func CountTimeWait(dst netip.AddrPort) (int, error) { return 0, ErrUnsupported }
