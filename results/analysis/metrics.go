package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
)

// MetricsLine says where the run's live metrics were served and whether
// Prometheus read the final values (of the run's end and of every
// window), and when; zero when the run served none.
func MetricsLine(r *results.Run) notes.Note {
	if r.Metrics == nil {
		return notes.Note{}
	}
	return notes.New(notes.MetricsServed, "metrics", r.Metrics)
}
