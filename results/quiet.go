package results

import "time"

// QuietWait is the wait for a quiet machine before a window (the plan's
// quiet): how long it took, and whether it timed out.
type QuietWait struct {
	// MaxOther is the share of the watched CPUs others were allowed.
	MaxOther float64 `json:"max_other"`
	// Waited is how long the window waited.
	Waited time.Duration `json:"waited"`
	// TimedOut is set when the machine never stayed quiet long enough:
	// the window was measured anyway (notes.QuietTimedOut).
	TimedOut bool `json:"timed_out,omitempty"`
	// Others is the larger share of the client's or the server's CPUs
	// that other processes took, and Busiest the busiest of them, in the
	// wait's last step that was not quiet; 0 and nil when none was.
	Others  float64     `json:"others,omitempty"`
	Busiest *ProcessCPU `json:"busiest,omitempty"`
}
