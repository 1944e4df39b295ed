package format

import (
	"fmt"
)

// Micros renders a per-request CPU time in microseconds: "228",
// "12.5", "0.84".
func Micros(us float64) string {
	switch {
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	case us >= 10:
		return fmt.Sprintf("%.1f", us)
	}
	return fmt.Sprintf("%.2f", us)
}
