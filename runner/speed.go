package runner

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
	"github.com/kaeload/kaeload/speed"
)

// runSpeed runs v's speed commands through ctl and parses their output; a
// command that fails or prints nothing speed.Parse knows is recorded in its
// SpeedRun.Error and warned about.
func (c *controller) runSpeed(ctx context.Context, ctl *server.Control, v plans.Variant) []results.SpeedRun {
	out := make([]results.SpeedRun, 0, len(v.Speed))
	for i, sp := range v.Speed {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(c.opts.Log, "variant %s: speed command %d/%d\n", v.Name, i+1, len(v.Speed))
		text, err := ctl.Run(ctx, "speed", sp.Command, sp.Timeout)
		rs, perr := speed.Parse(text)
		run := results.SpeedRun{Command: sp.Command, Results: rs}
		if err := cmp.Or(err, perr); err != nil {
			run.Error = err.Error()
			w := notes.New(notes.SpeedFailed, "variant", v.Name, "command", sp.Command, "error", run.Error).Warning()
			fmt.Fprintf(c.opts.Log, "%s (the load run goes on)\n", w.Message)
			c.warn(w)
		} else {
			fmt.Fprintf(c.opts.Log, "variant %s: speed command %d/%d: %d figures\n", v.Name, i+1, len(v.Speed), len(run.Results))
		}
		out = append(out, run)
	}
	return out
}

// runInfo runs the server info commands once per variant, when its server
// is ready; a failure is recorded, not fatal.
func (c *controller) runInfo(ctx context.Context, ctl *server.Control, variant int, rv *results.Variant) {
	if c.plan.Server == nil || len(c.plan.Server.Info) == 0 || rv.Info != nil {
		return
	}
	runs := make([]results.InfoRun, 0, len(c.plan.Server.Info))
	for _, cmd := range c.plan.Server.Info {
		if ctx.Err() != nil {
			return
		}
		text, err := ctl.Run(ctx, "info", cmd, commandTimeout(c.plan))
		run := results.InfoRun{Command: cmd, Output: strings.TrimSpace(text)}
		if len(run.Output) > results.InfoMax {
			run.Output = run.Output[:results.InfoMax]
		}
		if err != nil {
			run.Error = err.Error()
		}
		runs = append(runs, run)
	}
	c.change(results.Change{Type: results.ChangeInfo, Variant: variant, Info: runs})
}
