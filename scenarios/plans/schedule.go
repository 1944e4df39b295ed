package plans

import "github.com/kaeload/kaeload/results"

// Step is one measured window of a run: which variant, which repetition,
// and whether the server is (re)started before it.
type Step struct {
	// Variant is the index into Plan.Variants.
	Variant int `json:"variant"`
	// Rep is the repetition, 0-based (results.Rep.Index).
	Rep int `json:"rep"`
	// Restart is true when the server is stopped and started with the
	// variant's env (and waited for) before this step's warm-up. Always
	// false without Plan.Server.
	Restart bool `json:"restart,omitempty"`
}

// Steps lists the plan's measured windows in the order they run.
// Randomized: round r runs repetition r of every variant once, in the
// order results.BlockOrder(Seed, len(Variants), r), restarting the server before
// each step. Interleaved: the same in plan order. Sequential: every
// repetition of the first variant, then the next; the server restarts
// when the variant changes. Between steps the runner pauses for Cooldown.
// The variants of a Search are not in Steps (their windows are the
// search's); the others are, as if they were the plan's only variants.
func (p *Plan) Steps() []Step {
	var fixed []int
	for i := range p.Variants {
		if !p.Searched(i) {
			fixed = append(fixed, i)
		}
	}
	steps := make([]Step, 0, len(fixed)*p.Repeat)
	server := p.Server != nil
	switch p.Order {
	case results.OrderRandomized, results.OrderInterleaved:
		for r := range p.Repeat {
			order := results.BlockOrder(p.Seed, len(fixed), r)
			if p.Order == results.OrderInterleaved {
				for v := range order {
					order[v] = v
				}
			}
			for _, v := range order {
				steps = append(steps, Step{Variant: fixed[v], Rep: r, Restart: server})
			}
		}
	default:
		for _, v := range fixed {
			for r := range p.Repeat {
				steps = append(steps, Step{Variant: v, Rep: r, Restart: server && r == 0})
			}
		}
	}
	return steps
}
