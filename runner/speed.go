package runner

import (
	"context"
	"fmt"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
	"github.com/kaeload/kaeload/speed"
)

// runSpeed runs variant v's speed commands through ctl (so with the
// variant's env, each bounded by its timeout, output in the run log) and
// parses their output. A command that fails or prints nothing speed.Parse
// understands is recorded in its SpeedRun.Error, logged and warned about;
// it does not fail the run. The figures of a failed command's output are
// kept when there are any (e.g. openssl speed interrupted by the timeout).
func (c *controller) runSpeed(ctx context.Context, ctl *server.Control, v plans.Variant) []results.SpeedRun {
	out := make([]results.SpeedRun, 0, len(v.Speed))
	for i, sp := range v.Speed {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(c.opts.Log, "variant %s: speed command %d/%d\n", v.Name, i+1, len(v.Speed))
		run := results.SpeedRun{Command: sp.Command}
		text, err := ctl.Run(ctx, "speed", sp.Command, sp.Timeout)
		rs, perr := speed.Parse(text)
		run.Results = rs
		switch {
		case err != nil:
			run.Error = err.Error()
		case perr != nil:
			run.Error = perr.Error()
		}
		if run.Error != "" {
			msg := fmt.Sprintf("variant %s: speed command %q: %s", v.Name, sp.Command, run.Error)
			fmt.Fprintf(c.opts.Log, "%s (the load run goes on)\n", msg)
			c.warn(msg)
		} else {
			fmt.Fprintf(c.opts.Log, "variant %s: speed command %d/%d: %d figures\n", v.Name, i+1, len(v.Speed), len(run.Results))
		}
		out = append(out, run)
	}
	return out
}
