// Package ports holds the Linux facts that bound a client's short
// connections (port range, TIME_WAIT and its reuse), with warnings that
// name the sysctl to run. See docs/internals.md.
package ports
