package results

// Why an open-loop group missed more than MaxMissedShare of its starts.
const (
	// ClientBound: kaeload itself used at least ClientBoundBusy of the
	// group's CPUs (GroupCPU.ClientBound), so the client could not start
	// requests on time.
	ClientBound = "CLIENT-BOUND"
	// CPUsTaken: the group's CPUs were at least ClientBoundBusy busy, but
	// mostly with other processes than kaeload: they left it too little
	// CPU to start requests on time.
	CPUsTaken = "CPUS-TAKEN"
	// SlotsExhausted: the client had CPU to spare, but every connection
	// slot was busy when starts came due: the server answered too slowly
	// for the rate with this many connections (more connections would
	// only queue more at the server).
	SlotsExhausted = "SLOTS-EXHAUSTED"
)
