package rundir

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"testing"
)

// timelineBytes is how many bytes the timelines of rep add to run.json
// (WriteJSON, indented) and to the journal's line (compact).
func timelineBytes(t *testing.T, rep results.Rep) (file, journal int) {
	t.Helper()
	size := func(rep results.Rep) (int, int) {
		r := &results.Run{Name: "size", Variants: []results.Variant{{Name: "v", Reps: []results.Rep{rep}}}}
		var buf bytes.Buffer
		if err := results.WriteJSON(&buf, r); err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(results.Change{Type: results.ChangeRep, Rep: &rep}) // as Journal.append writes it
		if err != nil {
			t.Fatal(err)
		}
		return buf.Len(), len(line)
	}
	f1, j1 := size(rep)
	bare := rep
	bare.Timeline = nil
	bare.Groups = nil
	for _, g := range rep.Groups {
		g.Timeline = nil
		bare.Groups = append(bare.Groups, g)
	}
	f0, j0 := size(bare)
	return f1 - f0, j1 - j0
}

// TestTimelineSize holds the timeline to its budget: at most 64 KiB of
// run.json per group per minute of window at the default interval, for 1,
// 2, 4 and 11 groups, with the counters a healthy short-connection run on
// one shared namespace shows, and for a troubled run: connect and timeout
// errors in every interval, client and server namespaces apart, the
// server's accept queue overflowing (six and seven counters growing).
// The journal's compact lines take less than half; the test logs both.
func TestTimelineSize(t *testing.T) {
	const budget = 64 << 10
	const minute = 60 // intervals of DefaultInterval
	for _, troubled := range []bool{false, true} {
		for _, groups := range []int{1, 2, 4, 11} {
			file, journal := timelineBytes(t, fixture.TimelineRep(groups, minute, troubled))
			perFile, perJournal := file/groups, journal/groups
			t.Logf("troubled %-5v %2d groups: run.json %6.1f KiB per group per minute, journal %6.1f KiB", troubled, groups, float64(perFile)/1024, float64(perJournal)/1024)
			if perFile > budget {
				t.Errorf("%d groups: the timeline takes %d bytes of run.json per group per minute, want at most %d", groups, perFile, budget)
			}
		}
	}
}
