// Package cpustat measures CPU time over a window (per CPU, a process
// tree's, local or over ssh), finds a port's listener and reads the
// kernel's TCP counters and a host's facts.
package cpustat
