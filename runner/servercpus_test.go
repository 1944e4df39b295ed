package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
)

func TestServerCPUsExplore(t *testing.T) {
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "rsa2048", CPUs: "0"})
	for _, c := range []int{8, 50} {
		p := plan(ng.Addr, 2*time.Second, []int{0})
		p.Load.Groups[0].Connections = c
		run, _ := runLogged(t, p)
		var b strings.Builder
		render.WriteText(&b, analysis.Analyze(run))
		t.Logf("c=%d\n%s", c, b.String())
	}
}
