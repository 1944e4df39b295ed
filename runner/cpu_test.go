package runner

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
)

// TestClientBound measures CPU during the window against real nginx on CPU
// 0. A client group pinned to the same CPU as the busy server has no room
// to drive more load: it must be flagged client-bound. A client on its own
// CPU against a slow server (RSA-4096 signing) leaves the server the
// bottleneck: not flagged, and the server's process tree is the busy one.
func TestClientBound(t *testing.T) {
	needCPUs(t, 2)
	for _, tc := range []struct {
		name      string
		cert      string
		client    []int
		wantBound bool
	}{
		{"client on the server's CPU", "rsa2048", []int{0}, true},
		{"server is the bottleneck", "rsa4096", []int{1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ng := nginxtest.Start(t, nginxtest.Config{Cert: tc.cert, CPUs: "0"})
			p := plan(ng.Addr, time.Second, tc.client)
			p.Load.Groups[0].Connections = 8
			run, err := Run(context.Background(), p, testOptions(t, "1"))
			if err != nil {
				t.Fatal(err)
			}
			rep := run.Variants[0].Reps[0]
			g := rep.Groups[0]
			if g.CPU == nil || rep.ServerCPU == nil {
				t.Fatalf("CPU not measured: client %+v, server %+v", g.CPU, rep.ServerCPU)
			}
			t.Logf("%d req/s; client CPUs %s %.0f %% busy; server %.2f s on CPUs %s (%.0f %%)",
				int(rep.Total.Rate()), g.CPU.CPUs, 100*g.CPU.Busy, rep.ServerCPU.Seconds, rep.ServerCPU.CPUs, 100*rep.ServerCPU.Busy)
			if got := slices.Contains(rep.ClientBound(), 0); got != tc.wantBound {
				t.Errorf("client-bound = %v, want %v (client busy %.2f)", got, tc.wantBound, g.CPU.Busy)
			}
			// The server was pinned to CPU 0, so its tree may use only CPU 0;
			// against RSA-4096 it is that CPU's main user.
			if rep.ServerCPU.CPUs != "0" {
				t.Errorf("server CPUs %q, want 0 (nginx is pinned there)", rep.ServerCPU.CPUs)
			}
			if !tc.wantBound && rep.ServerCPU.Busy < 0.5 {
				t.Errorf("server %.0f %% busy; RSA-4096 handshakes should keep it the bottleneck", 100*rep.ServerCPU.Busy)
			}
			if tc.wantBound {
				run.Annotate()
				if len(run.Warnings) == 0 {
					t.Errorf("no client-bound warning in run.Warnings")
				}
			}
			if g.CPU.CPUs != g.CPUs {
				t.Errorf("group CPU measured on %q, group pinned to %q", g.CPU.CPUs, g.CPUs)
			}
		})
	}
}
