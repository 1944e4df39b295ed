package format

import (
	"fmt"
	"github.com/kaeload/kaeload/results"
)

// SlotMemoryLine renders m for the reports: "39.6 MiB private at peak in 1 worker
// (1.5 MiB idle); 33.1 KiB per connection slot", or with "per connection
// slot n/a" and why.
func SlotMemoryLine(m results.SlotMemory) string {
	workers := "1 worker"
	if m.Workers != 1 {
		workers = fmt.Sprintf("%d workers", m.Workers)
	}
	line := fmt.Sprintf("%s MiB private at peak in %s (%s MiB idle); ", Rate(float64(m.Peak)/(1<<20)), workers, Rate(float64(m.Ready)/(1<<20)))
	if m.Known {
		return line + fmt.Sprintf("%s KiB per connection slot", Rate(m.PerSlot/1024))
	}
	slots := Count(uint64(m.Slots)) + " slots"
	if m.Slots == 1 {
		slots = "1 slot"
	}
	return line + fmt.Sprintf("per connection slot n/a: %s grew it by %s MiB, under twice the %s MiB any loaded worker grows by",
		slots, Rate(float64(m.Peak-m.Ready)/(1<<20)), Rate(float64(results.SlotMemoryBase)*float64(m.Workers)/(1<<20)))
}
