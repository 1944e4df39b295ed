package analysis

import (
	"github.com/kaeload/kaeload/results"
	"strings"
	"testing"
)

// TestPortsHint checks that the hint shown with ports errors names what to
// do: the exact sysctls, and more addresses.
func TestPortsHint(t *testing.T) {
	for _, w := range []string{"client ports exhausted: ", "sysctl -w net.ipv4.tcp_tw_reuse=1", "sysctl -w net.ipv4.ip_local_port_range='1024 65535'", "more client or server addresses"} {
		if !strings.Contains(results.PortsHint, w) {
			t.Errorf("PortsHint %q lacks %q", results.PortsHint, w)
		}
	}
}
