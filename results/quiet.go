package results

import (
	"fmt"
	"time"
)

// QuietWait is the wait for a quiet machine before a window (the plan's
// quiet): how long it took, and what the machine was like at its end.
type QuietWait struct {
	// MaxOther is the share of the watched CPUs others were allowed.
	MaxOther float64 `json:"max_other"`
	// Waited is how long the window waited.
	Waited time.Duration `json:"waited"`
	// TimedOut is set when the machine never stayed quiet long enough:
	// the window was measured anyway (QuietWarning).
	TimedOut bool `json:"timed_out,omitempty"`
	// Others is the largest share of the client's or the server's CPUs
	// other processes took in the last step of the wait.
	Others float64 `json:"others"`
	// Busiest is the busiest other process of the last step that was
	// not quiet; nil when none was seen.
	Busiest *ProcessCPU `json:"busiest,omitempty"`
}

// QuietWarning is the warning for the window named label whose wait q
// timed out: "variant kae rep 2/3: measured on a busy machine: …".
func QuietWarning(label string, q QuietWait) string {
	return fmt.Sprintf("%s: measured on a busy machine: other processes took %.0f %% of its CPUs (%.0f %% allowed) after waiting %s%s",
		label, 100*q.Others, 100*q.MaxOther, q.Waited.Round(time.Second), q.Busiest.busiest())
}

// busiest is ", the busiest NAME (pid N)" for p, "" for nil.
func (p *ProcessCPU) busiest() string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(", the busiest %s (pid %d)", p.Comm, p.PID)
}
