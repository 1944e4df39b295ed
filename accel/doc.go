// Package accel simulates an offload accelerator behind a TLS server's
// signatures, so that a KAE_GO_SOFT_RATIO sweep has a real optimum on any
// machine: a virtual device (engines, capacity, latency, a queue bound
// that answers RETRY), the policy that splits signatures between it and
// software, the CPU each path costs, spent for real, and its counters.
package accel
