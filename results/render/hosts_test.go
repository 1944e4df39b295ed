package render

import (
	"bytes"
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"strings"
	"testing"
	"time"
)

// TestTextHosts: a run with a group on an ssh host shows the host's
// facts and clock in the header, a host column in the group table and a
// line per host with its groups, CPUs, client CPU and clock offset; the
// hosts survive a JSON round trip.
func TestTextHosts(t *testing.T) {
	rep := fixture.Rep(0, 10, 1000, 2000)
	g0, g1 := rep.Groups[0], rep.Groups[1]
	g0.CPU = &results.CPUUsage{CPUs: "0-3", Seconds: 3, Busy: 0.375}
	g1.CPUs, g1.Host, g1.ClockOffset = "40-47", "ssh://root@c1", 1500*time.Microsecond
	g1.CPU = &results.CPUUsage{CPUs: "40-47", Seconds: 8, Busy: 0.5}
	r := &results.Run{
		SchemaVersion: results.SchemaVersion, Name: "two", Started: fixture.T0, Finished: fixture.T0.Add(3 * time.Second),
		Variants: []results.Variant{{Name: "default", Reps: []results.Rep{results.NewRep(0, []results.Group{g0, g1})}}},
		Hosts: []results.RemoteHost{{Name: "ssh://root@c1", Roles: "group 1", Platform: "linux/arm64", Binary: strings.Repeat("ab", 32), Uploaded: true,
			RTT: 400 * time.Microsecond, ClockOffset: 1500 * time.Microsecond, Facts: &results.RemoteFacts{Kernel: "Linux 5.10 aarch64", CPUs: 128, CPUModel: "Kunpeng 920"}}},
	}
	var b bytes.Buffer
	if err := WriteText(&b, analysis.Analyze(r)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"host      ssh://root@c1: group 1; 128 CPUs (Kunpeng 920), Linux 5.10 aarch64; kaeload linux/arm64 sha256 abababababababab uploaded; round trip 400µs, clock offset 1.5ms ± 200µs\n",
		"host local: group 0 on CPUs 0-3, client CPU 3.00 s (busiest group 37.5 %)\n",
		"host ssh://root@c1: group 1 on CPUs 40-47, client CPU 8.00 s (busiest group 50.0 %), clock offset 1.5ms\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "group  host") {
		t.Errorf("no host column in:\n%s", out)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back results.Run
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Hosts[0].Facts.CPUModel != "Kunpeng 920" || back.Variants[0].Reps[0].Groups[1].ClockOffset != 1500*time.Microsecond {
		t.Errorf("round trip lost host facts: %+v", back.Hosts)
	}
}
