package plans

import (
	"testing"
	"time"
)

// TestShortDuration checks how limits are written in messages.
func TestShortDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{24 * time.Hour, "24h"}, {time.Hour, "1h"}, {10 * time.Minute, "10m"}, {90 * time.Minute, "1h30m"}, {90 * time.Second, "1m30s"}, {time.Second, "1s"}} {
		if got := shortDuration(tt.d); got != tt.want {
			t.Errorf("shortDuration(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
