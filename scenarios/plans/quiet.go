package plans

import (
	"fmt"
	"math"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
)

// Quiet is the wait before each window until other processes take less
// than MaxOther of the watched CPUs for For, at most Timeout (then flagged).
type Quiet struct {
	MaxOther float64       `json:"max_other"`
	For      time.Duration `json:"for"`
	Timeout  time.Duration `json:"timeout"`
}

// DefaultQuiet is quiet: {} and --wait-quiet.
var DefaultQuiet = Quiet{MaxOther: 0.10, For: 5 * time.Second, Timeout: 2 * time.Minute}

// QuietBound bounds quiet.for and quiet.timeout.
var QuietBound = DurationLimit{time.Hour, false, "a wait before each window"}

// MaxOtherProblem says what is wrong with quiet.max_other, or "".
func MaxOtherProblem(f float64) string {
	if math.IsNaN(f) || f <= 0 || f > 1 {
		return fmt.Sprintf("want a share above 0%% and at most 100%%, got %s", numfmt.Percent(f))
	}
	return ""
}
