package runner

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/nginxtest"
	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// runOnce runs p and returns its one repetition, failing the test on error.
func runOnce(t *testing.T, p *plans.Plan) results.Rep {
	t.Helper()
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := Run(context.Background(), p, testOptions(t, "1"))
	if err != nil {
		t.Fatal(err)
	}
	rep := run.Variants[0].Reps[0]
	checkRepTimeline(t, p, rep)
	return rep
}

// ms is a histogram's quantile in milliseconds.
func ms(h *results.Histogram, q float64) float64 { return float64(h.ValueAtQuantile(q)) / 1e3 }

// TestOpenLoopNginx is the open loop against a real server, nginx on CPU 0
// and the client on CPU 1, at rates relative to the capacity measured
// first in the same test (closed loop, two connections):
//
//   - far below it (a tenth), the achieved rate is the asked one within
//     1 % and no start is missed;
//   - far above it (ten times) with the same two connection slots, starts
//     are missed and flagged, and the latency from the intended start
//     grows to the timeout (the missed starts are in it) while the
//     latency from the actual start stays what the closed loop saw: the
//     coordinated-omission check. A closed loop at this concurrency would
//     report that latency alone and hide the overload.
func TestOpenLoopNginx(t *testing.T) {
	endToEndOnce(t, "open-loop rates and latencies against nginx")
	needCPUs(t, 2)
	ng := nginxtest.Start(t, nginxtest.Config{Cert: "rsa2048", CPUs: "0"})

	closed := plan(ng.Addr, time.Second, []int{1})
	closed.Load.Groups[0].Connections = 2
	c := runOnce(t, closed).Total
	capacity := c.Rate()
	t.Logf("closed loop, 2 connections: %.0f req/s, total p50 %.2f ms, p99 %.2f ms", capacity, ms(c.Latency.Total, 50), ms(c.Latency.Total, 99))
	if capacity < 50 {
		testkit.SkipBusy(t, "capacity %.0f req/s with CPUs 0 and 1 shared as they are now: too little to test rates a tenth of it", capacity)
	}

	t.Run("far below", func(t *testing.T) {
		p := plan(ng.Addr, time.Second, []int{1})
		p.Load.Groups[0].Connections = 256 // waiting slots cost nothing: room for any stall of a shared machine
		p.Load = p.Load.SplitRate(math.Round(capacity / 10))
		rep := runOnce(t, p)
		g := rep.Total
		asked := p.Load.Rate
		t.Logf("asked %.0f/s: %s; total p50 %.2f ms, from intended p50 %.2f ms", asked, openLoopSummary(&g), ms(g.Latency.Total, 50), ms(g.Latency.Intended, 50))
		if g.Missed != 0 {
			t.Errorf("missed %d of %d starts, want 0", g.Missed, g.Scheduled)
		}
		if g.Errors.Total() != 0 {
			t.Errorf("errors %+v", g.Errors)
		}
		// The window's starts are the schedule's: rate × window, ±1.
		want := asked * g.Window.Length().Seconds()
		if d := float64(g.Scheduled) - want; math.Abs(d) > 1 {
			t.Errorf("scheduled %d starts in the window, want %.1f", g.Scheduled, want)
		}
		// Achieved: completed in the window over its length. It differs
		// from the asked rate by the requests in flight at the edges: one
		// on a quiet machine; on a loaded one, those still in flight at
		// the end (late or cut off) and as many again at the start, or
		// rate × the slowest completed request's time.
		w := g.Window.Length().Seconds()
		inFlight := float64(g.Outside.Late + g.Outside.Abandoned)
		edge := max(math.Floor(asked*float64(g.Latency.Intended.Max())/1e6), 2*inFlight) + 1
		if got := g.Rate(); math.Abs(got-asked) > max(0.01*asked, edge/w) {
			t.Errorf("achieved %.1f/s, asked %.0f/s: want within 1 %% (or %.0f requests in flight at the edges)", got, asked, edge)
		}
		if why := analysis.AnalyzeRep(&rep).Missed; !why.IsZero() {
			t.Errorf("flagged %s, want not", why)
		}
	})

	t.Run("far above", func(t *testing.T) {
		p := plan(ng.Addr, time.Second, []int{1})
		p.Load.Groups[0].Connections = 2 // the closed loop's concurrency
		p.Load = p.Load.SplitRate(math.Round(capacity * 10))
		rep := runOnce(t, p)
		g := rep.Total
		t.Logf("asked %.0f/s: %s; total p50 %.2f ms p99 %.2f ms; from intended p50 %.2f ms p99 %.2f ms",
			p.Load.Rate, openLoopSummary(&g), ms(g.Latency.Total, 50), ms(g.Latency.Total, 99), ms(g.Latency.Intended, 50), ms(g.Latency.Intended, 99))
		// At most the capacity ran: at least 1 - 1/10 missed, less what
		// a noisy machine may add; half is far from both.
		if g.MissedShare() < 0.5 {
			t.Errorf("missed %d of %d starts (%.1f %%), want most", g.Missed, g.Scheduled, 100*g.MissedShare())
		}
		// Two slots run out; on a machine whose CPU 1 is full (of kaeload
		// or of other processes) the CPU is named first.
		limits := []string{results.SlotsExhausted, results.ClientBound, results.CPUsTaken}
		why := analysis.AnalyzeRep(&rep).Missed.String()
		if !slices.ContainsFunc(limits, func(l string) bool { return strings.Contains(why, " "+l+" (missed") }) {
			t.Errorf("missed starts %q, want a group %s, %s or %s", why, limits[0], limits[1], limits[2])
		}
		// Latency from the intended start: the missed starts, most of
		// them, are there at the timeout.
		if got, want := g.Latency.Intended.ValueAtQuantile(50), p.Load.Timeout.Microseconds(); got < want {
			t.Errorf("p50 from intended start %d µs, want the %v timeout", got, p.Load.Timeout)
		}
		// Latency from the actual start: two requests in flight at most,
		// as in the closed loop; no queue built up behind the server, so
		// it is a small part of the latency from the intended start, which
		// the queue of missed starts fills. (A comparison with the closed
		// loop's figure, measured seconds earlier, would compare two
		// moments of a shared machine.)
		if got, intended := ms(g.Latency.Total, 50), ms(g.Latency.Intended, 50); got > intended/10 {
			t.Errorf("p50 from actual start %.2f ms, from intended start %.2f ms: want a tenth of it at most (closed loop %.2f ms)", got, intended, ms(c.Latency.Total, 50))
		}
	})
}

// openLoopSummary is the scheduled, missed and achieved figures of g.
func openLoopSummary(g *results.Group) string {
	return "scheduled " + format.Count(g.Scheduled) + ", missed " + format.Count(g.Missed) +
		", achieved " + format.Rate(g.Rate()) + "/s, errors " + format.Count(g.Errors.Total())
}
