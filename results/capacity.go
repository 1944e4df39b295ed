package results

import (
	"time"
)

// CapacitySpec is a capacity search's configuration as a run records it
// (Run.Capacity): per variant, the highest open-loop rate whose window
// meets the targets, stepping up from From by Factor (at most Max), then
// bisecting to Resolution. Each step is one repetition of the variant
// with Rep.Step set.
type CapacitySpec struct {
	// P99Handshake and P99Total are the latency targets (0 = none);
	// P99Total is measured from the intended start (Latency.Intended).
	P99Handshake time.Duration `json:"p99_handshake,omitempty"`
	P99Total     time.Duration `json:"p99_total,omitempty"`
	// MaxErrors and MaxMissed bound a step's error and missed shares.
	MaxErrors float64 `json:"max_errors"`
	MaxMissed float64 `json:"max_missed"`
	// From, Factor, Resolution and Max shape the steps.
	From       float64 `json:"from"`
	Factor     float64 `json:"factor"`
	Resolution float64 `json:"resolution"`
	Max        float64 `json:"max"`
}

// CapacityStep marks a repetition as one step of a capacity search.
type CapacityStep struct {
	// Rate is the open-loop rate asked, per second, in all groups.
	Rate float64 `json:"rate"`
	// Phase is "up" (geometric step-up) or "bisect".
	Phase string `json:"phase"`
	// Pass says whether the step met the targets; Why says which it
	// missed when it did not.
	Pass bool   `json:"pass"`
	Why  string `json:"why,omitempty"`
}

// Capacity is one variant's capacity search as its steps tell it.
type Capacity struct {
	// Variant is the variant's index in Run.Variants.
	Variant int
	// Knee is the highest rate that met the targets (0: none did); Fail
	// the lowest that did not (0: none).
	Knee, Fail float64
	// BelowFrom: no step met the targets, the knee is below the first
	// rate. AtMax: every step met them up to Max, the knee is at or above it.
	BelowFrom, AtMax bool
	// Steps are the variant's repetitions that are steps, in order.
	Steps []*Rep
}
