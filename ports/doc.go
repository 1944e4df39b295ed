// Package ports holds the Linux facts that bound a load generator's short
// connections from the client side: the ephemeral port range a client
// dials from, whether the kernel reuses ports held in TIME_WAIT, and how
// many sockets are in TIME_WAIT now.
//
// A TCP connection is identified by its four-tuple, so a client needs one
// free local port per connection to each destination (server IP and
// port): with the default range 32768-60999 that is 28,232 connections at
// once per destination. With connection: close, the side that closes
// first keeps the connection in TIME_WAIT for 60 s (TCP_TIMEWAIT_LEN,
// fixed in Linux; net.ipv4.tcp_fin_timeout is FIN_WAIT_2 and does not
// change it), and its port with it. A client that closes first therefore
// runs out of ports at about 28,232 / 60 ≈ 470 new connections per second
// per destination unless net.ipv4.tcp_tw_reuse lets it reuse TIME_WAIT
// ports (1: always; 2, the default: only to loopback destinations).
//
//	l, _ := ports.Read() // the sysctls; unknown (no warnings) off Linux
//	load := ports.Load{Connections: 200, Close: true, Rate: 1000}
//	for _, w := range ports.Warnings(l, load) {
//		fmt.Println("warning:", w) // each names the command to run
//	}
//	...
//	if ports.Exhausted(dialErr) {
//		// a client out of ports, not a server refusing (results.ErrPorts)
//	}
//
// The parsers take the files' text, so they are tested without /proc. The
// package imports no other kaeload package.
package ports
