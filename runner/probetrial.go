package runner

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"

	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/server"
)

// ProbeTrial is one probe read once before any load (validate, --dry-run):
// a wrong path shows before an hour of failed readings.
type ProbeTrial struct {
	Name  string
	Value float64 // the number read
	Err   error   // why none was read
}

// Line is the trial in one line: "hpre_send: 1234" or "hpre_send: FAILED: …".
func (t *ProbeTrial) Line() string {
	if t.Err != nil {
		return fmt.Sprintf("%s: FAILED: %v", t.Name, t.Err)
	}
	return fmt.Sprintf("%s: %g", t.Name, t.Value)
}

// TryProbes reads every distinct probe of p once on the server's host, with
// the env of the first variant that has it; nil when p has none.
func TryProbes(ctx context.Context, p *plans.Plan) []ProbeTrial {
	if p.Server == nil || !slices.ContainsFunc(p.Variants, func(v plans.Variant) bool { return len(v.Probes) > 0 }) {
		return nil
	}
	compiled, err := compileProbes(p)
	var remoteRun func(ctx context.Context, env map[string]string, command string) *exec.Cmd
	if err == nil && p.Server.SSH != nil {
		conn, derr := dialSSH(ctx, p, *p.Server.SSH, io.Discard)
		if err = derr; err == nil {
			defer conn.Close()
			remoteRun = shellOn(conn)
		}
	}
	type key struct{ name, command, pattern string }
	seen := map[key]bool{}
	var out []ProbeTrial
	for i, v := range p.Variants {
		for j, pr := range v.Probes {
			k := key{pr.Name, pr.Command, pr.Pattern}
			if seen[k] {
				continue
			}
			seen[k] = true
			t := ProbeTrial{Name: pr.Name, Err: err}
			if err == nil {
				ctl := &server.Control{Host: p.Server.Host, Env: v.Env, Log: io.Discard, Remote: remoteRun}
				t.Value, t.Err = ctl.Read(ctx, compiled[i][j])
			}
			out = append(out, t)
		}
	}
	return out
}
