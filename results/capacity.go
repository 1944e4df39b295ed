package results

import "time"

// CapacitySpec is how a capacity search looked for the highest open-loop rate meeting the
// targets: up from From by Factor to Max, then bisecting to Resolution.
type CapacitySpec struct {
	P99Handshake time.Duration `json:"p99_handshake,omitempty"` // 0: no target
	P99Total     time.Duration `json:"p99_total,omitempty"`     // from the intended start
	MaxErrors    float64       `json:"max_errors"`
	MaxMissed    float64       `json:"max_missed"`
	From         float64       `json:"from"`
	Factor       float64       `json:"factor"`
	Resolution   float64       `json:"resolution"`
	Max          float64       `json:"max"`
}

// CapacityStep marks a repetition as one step of a capacity search.
type CapacityStep struct {
	Rate  float64 `json:"rate"`  // asked, per second, all groups
	Phase string  `json:"phase"` // "up" or "bisect"
	Pass  bool    `json:"pass"`
	Why   string  `json:"why,omitempty"` // the target missed
}

// Capacity is a variant's search: Knee the highest rate meeting the targets, Fail the lowest not (0: none).
type Capacity struct {
	Variant          int // index in Run.Variants
	Knee, Fail       float64
	BelowFrom, AtMax bool // no step met them; all did
	Steps            []*Rep
}
