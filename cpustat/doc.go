// Package cpustat measures CPU time over a measurement window: per-CPU busy
// time for a load group's CPUs (SampleCPUs, or ParseProcStat for /proc/stat
// text read from a remote server), CPU time of a local process tree such as
// an nginx master and its workers (SampleTree, or RemoteProcs for another
// machine's /proc/*/stat read over ssh), the process listening on a
// port (FindListener, or a Listener that remembers it), the kernel's TCP
// counters of a network namespace (ReadTCPCounters, or
// ParseRemoteTCPCounters for RemoteTCPCountersCommand's output over ssh;
// TCPSnapshot.Delta between two readings) and the facts about a host that
// a run records (HostFacts).
//
// Take one sample at the start of the window and one at its end; the
// earlier sample's Usage method turns the pair into a results.CPUUsage.
// The package imports only pinning and results.
package cpustat
