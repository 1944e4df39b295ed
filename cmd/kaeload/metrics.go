package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/kaeload/kaeload/examples/grafana"
	"github.com/kaeload/kaeload/metrics"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// metricsFlags are run's live metrics flags, over the scenario's section.
type metricsFlags struct {
	listen       string
	wait, linger time.Duration
}

// config is the endpoint asked for and what asked (for errors); nil: off.
func (m *metricsFlags) config(plan *plans.Plan) (*plans.Metrics, string, error) {
	var c plans.Metrics
	switch {
	case plan.Metrics != nil:
		c = *plan.Metrics
	case m.listen != "":
	case m.wait != 0 || m.linger != 0:
		return nil, "", usageError(fmt.Errorf("run: --metrics-wait and --metrics-linger need --metrics ADDR (or the scenario's metrics section)"))
	default:
		return nil, "", nil
	}
	from := "metrics.listen"
	if m.listen != "" {
		c.Listen, from = m.listen, "--metrics"
	}
	c.Wait, c.Linger = cmp.Or(m.wait, c.Wait), cmp.Or(m.linger, c.Linger)
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"--metrics-wait", c.Wait}, {"--metrics-linger", c.Linger}} { // in this order, both bad or not
		if p := plans.MetricsWaitBound.Problem(f.d); p != "" {
			return nil, "", usageError(fmt.Errorf("run: %s %s: %s", f.name, f.d, p))
		}
	}
	return &c, from, nil
}

// serve binds the metrics endpoint before any load; nil when metrics are off.
func (m *metricsFlags) serve(plan *plans.Plan, stderr io.Writer) (*metrics.Server, error) {
	cfg, from, err := m.config(plan)
	if err != nil || cfg == nil {
		return nil, err
	}
	srv, err := metrics.Listen(*cfg, stderr)
	if err != nil {
		return nil, usageError(fmt.Errorf("run: %s %s: %v (no load was sent)", from, cfg.Listen, err))
	}
	fmt.Fprintf(stderr, "kaeload: live metrics on %s (port %d)\n", srv, srv.Port())
	if !srv.Loopback() {
		fmt.Fprintf(stderr, "kaeload: warning: the metrics endpoint %s is not on loopback and has no authentication: anyone who reaches this machine can read it\n", cfg.Listen)
	}
	return srv, nil
}

var dashboardCommand = command{name: "dashboard", summary: "print the Grafana dashboard of the live metrics (run --metrics)",
	help: `
Prints kaeload's Grafana dashboard (JSON, for Dashboards > Import) of a
run's live metrics (kaeload run --metrics ADDR); the same file is
examples/grafana/kaeload.json. See docs/metrics.md.`,
	what: "no arguments",
	setup: func(*flag.FlagSet) body {
		return func(_ context.Context, s stdio, _ []string) error {
			_, err := s.out.Write(grafana.Dashboard)
			return err
		}
	}}
