//go:build !linux

package cpustat

// diagListening is Linux's sock_diag; elsewhere Listener falls back to
// /proc/net/tcp, which fails there too.
func diagListening(port int, buf []byte) ([]uint64, error) {
	return nil, ErrUnsupported
}
