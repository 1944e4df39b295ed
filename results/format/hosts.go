package format

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
	"strings"
	"time"
)

// HostLine describes an ssh host of a run in one line: what it did, the
// machine, the kaeload binary and the clock.
func HostLine(h results.RemoteHost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", h.Name, h.Roles)
	if f := h.Facts; f != nil {
		fmt.Fprintf(&b, "; %d CPUs", f.CPUs)
		if f.CPUModel != "" {
			fmt.Fprintf(&b, " (%s)", f.CPUModel)
		}
		if f.Kernel != "" {
			fmt.Fprintf(&b, ", %s", f.Kernel)
		}
	}
	if h.Binary != "" {
		how := "found"
		if h.Uploaded {
			how = "uploaded"
		}
		fmt.Fprintf(&b, "; kaeload %s sha256 %.16s %s", h.Platform, h.Binary, how)
	}
	if h.RTT > 0 {
		fmt.Fprintf(&b, "; round trip %s, clock offset %s ± %s", h.RTT.Round(time.Microsecond), h.ClockOffset.Round(time.Microsecond), (h.RTT / 2).Round(time.Microsecond))
		if h.Uncertain {
			b.WriteString(" (UNCERTAIN: more than 1 % of the window)")
		}
	}
	return b.String()
}
