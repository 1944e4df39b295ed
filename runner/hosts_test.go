package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestDialHostsNamesEachFailureOnce: with two hosts nobody listens on, the
// log says "connecting" once for both, and the error has one line per
// failed host, naming it once with its group (issue 39 item 4); an
// interrupt is one error.
func TestDialHostsNamesEachFailureOnce(t *testing.T) {
	testkit.NeedCommand(t, "ssh", "openssh-client")
	p := &plans.Plan{Hosts: []plans.SSHHost{{Name: "ssh://127.0.0.1:1", Host: "127.0.0.1", Port: 1}, {Name: "ssh://127.0.0.1:2", Host: "127.0.0.1", Port: 2}}}
	p.Load.Groups = []plans.Group{{Host: &p.Hosts[0]}, {Host: &p.Hosts[1]}}
	var log testkit.LockedBuffer
	_, err := dialHosts(context.Background(), p, Options{Log: &log})
	if err == nil {
		t.Fatal("dialled hosts nobody listens on")
	}
	if got := log.String(); got != "connecting to 2 hosts over ssh\n" {
		t.Errorf("log %q, want the one connecting line", got)
	}
	t.Log(err)
	for _, line := range strings.Split(err.Error(), "\n") {
		n := 0
		for i, h := range p.Hosts {
			n += strings.Count(line, h.Name)
			if strings.Contains(line, h.Name) && !strings.HasPrefix(line, fmt.Sprintf("group %d: ssh host %s: connect: ", i, h.Name)) {
				t.Errorf("error line %q: want it to start with the group and the host", line)
			}
		}
		if n != 1 || !strings.Contains(line, "Connection refused") {
			t.Errorf("error line %q names %d hosts, want one, and ssh's reason", line, n)
		}
	}
	// An interrupt is said once, not once per host.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dialHosts(ctx, p, Options{Log: io.Discard}); err != context.Canceled {
		t.Errorf("interrupted dial: %v, want context.Canceled alone", err)
	}
}
