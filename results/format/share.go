package format

import (
	"fmt"
	"strings"
)

// Share formats a fraction as a percentage with up to two decimals
// ("1 %", "0.25 %", "12.5 %"); a share above 0 that would show as 0 is
// "<0.01 %".
func Share(f float64) string {
	if f > 0 && f < 0.00005 {
		return "<0.01 %"
	}
	s := fmt.Sprintf("%.2f", f*100)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " %"
}
