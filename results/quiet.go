package results

import "time"

// QuietWait is the wait for a quiet machine before a window (the plan's quiet).
type QuietWait struct {
	MaxOther float64       `json:"max_other"` // share allowed to others
	Waited   time.Duration `json:"waited"`
	TimedOut bool          `json:"timed_out,omitempty"` // never quiet long enough, measured anyway
	// The larger share of the client's or server's CPUs others took in the last step not quiet,
	// and the busiest of them.
	Others  float64     `json:"others,omitempty"`
	Busiest *ProcessCPU `json:"busiest,omitempty"`
}
