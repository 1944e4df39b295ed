// Package ports holds the Linux facts that bound a client's short
// connections: the ephemeral port range, TIME_WAIT reuse and the sockets in
// TIME_WAIT, with warnings that name the sysctl to run. See
// docs/internals.md.
package ports
