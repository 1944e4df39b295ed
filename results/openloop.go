package results

// Why an open-loop group missed more than MaxMissedShare of its starts:
// kaeload used at least ClientBoundBusy of the CPUs; others kept them that
// busy; or CPU was to spare but every slot was busy when starts came due
// (the server was too slow for the rate with this many connections).
const (
	ClientBound    = "CLIENT-BOUND"
	CPUsTaken      = "CPUS-TAKEN"
	SlotsExhausted = "SLOTS-EXHAUSTED"
)
