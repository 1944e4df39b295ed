package results

import (
	"fmt"
	"time"
)

// QuietWait is the wait for a quiet machine before a window (the plan's
// quiet): how long it took, and whether it timed out.
type QuietWait struct {
	MaxOther float64       `json:"max_other"` // share allowed to others
	Waited   time.Duration `json:"waited"`
	// TimedOut: never quiet long enough, measured anyway (QuietWarning).
	TimedOut bool `json:"timed_out,omitempty"`
	// Others is the larger share of the client's or server's CPUs others
	// took in the last step that was not quiet, Busiest the busiest of them.
	Others  float64     `json:"others,omitempty"`
	Busiest *ProcessCPU `json:"busiest,omitempty"`
}

// QuietWarning is the warning for the window named label whose wait q
// timed out: "variant kae rep 2/3: measured on a busy machine: …".
func QuietWarning(label string, q QuietWait) string {
	return fmt.Sprintf("%s: measured on a busy machine: after waiting %s for a quiet one, other processes still took %.0f %% of the client's or the server's CPUs (under %.0f %% wanted)%s",
		label, q.Waited.Round(time.Second), 100*q.Others, 100*q.MaxOther, q.Busiest.busiest())
}

// busiest is ", the busiest NAME (pid N)" for p, "" for nil.
func (p *ProcessCPU) busiest() string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(", the busiest %s (pid %d)", p.Comm, p.PID)
}
