package results

// Why an open-loop group missed more than MaxMissedShare of its starts.
const (
	// ClientBound: kaeload itself used at least ClientBoundBusy of the CPUs.
	ClientBound = "CLIENT-BOUND"
	// CPUsTaken: the CPUs were that busy, mostly with other processes.
	CPUsTaken = "CPUS-TAKEN"
	// SlotsExhausted: CPU to spare, but every slot was busy when starts
	// came due: the server was too slow for the rate with this many
	// connections (more would only queue more at the server).
	SlotsExhausted = "SLOTS-EXHAUSTED"
)
