package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// MetricsLine says where live metrics were served and whether Prometheus
// read the final values; zero without.
func MetricsLine(r *results.Run) notes.Note {
	if r.Metrics == nil {
		return notes.Note{}
	}
	return notes.New(notes.MetricsServed, "metrics", r.Metrics)
}
