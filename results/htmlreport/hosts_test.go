package htmlreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
)

// TestHosts: the report lists a run's ssh hosts with their clock.
func TestHosts(t *testing.T) {
	r := fixtureRun()
	r.Hosts = []results.RemoteHost{{Name: "ssh://root@c1", Roles: "group 1", RTT: 2 * time.Millisecond, ClockOffset: time.Millisecond}}
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if want := "<li>ssh://root@c1: group 1; round trip 2ms, clock offset 1ms ± 1ms</li>"; !strings.Contains(b.String(), want) {
		t.Errorf("no %q in the report", want)
	}
}
