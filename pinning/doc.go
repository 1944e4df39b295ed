// Package pinning owns CPU lists, process affinity and CPU topology, and
// starts processes pinned to a set from their first instruction. It
// imports no other kaeload package.
package pinning
