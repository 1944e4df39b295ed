// Package cpustat measures CPU time over a window: per-CPU busy time, a
// process tree's CPU (local or from /proc read over ssh), the process
// listening on a port, the kernel's TCP counters and a host's facts. It
// imports only pinning and results.
package cpustat
