// Package pinning owns CPU lists, process affinity and CPU topology: it
// parses taskset-style lists ("0-9,20-29"), expands regular layouts, reads
// the CPUs this machine offers, and starts processes pinned to a set from
// their first instruction. It imports no other kaeload package.
package pinning
