package runner

import (
	"testing"

	"github.com/kaeload/kaeload/results"
)

// An output's facts are run-wide: a window, a variant's info or the run's begin, end or resume
// is Run's to make, and the journal would refuse some.
func TestOutputFact(t *testing.T) {
	for typ, ok := range map[string]bool{
		results.ChangeWarning: true, results.ChangeMetrics: true,
		results.ChangeRep: false, results.ChangeInfo: false, results.ChangeNotMeasured: false,
		results.ChangeBegin: false, results.ChangeEnd: false, results.ChangeResume: false,
	} {
		if err := outputFact(results.Change{Type: typ}); (err == nil) != ok {
			t.Errorf("outputFact(%s) = %v, want accepted %v", typ, err, ok)
		}
	}
}
