package plans

import "github.com/kaeload/kaeload/results"

// Step is one measured window of a run.
type Step struct {
	Variant int  `json:"variant"`           // index into Plan.Variants
	Rep     int  `json:"rep"`               // 0-based repetition
	Restart bool `json:"restart,omitempty"` // server restarted with the variant's env first
}

// Steps lists the plan's measured windows in the order they run.
// Randomized: round r runs every variant once in results.BlockOrder's
// order, a restart before each; interleaved: the same in plan order;
// sequential: variant after variant. A Search's variants are not in it.
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
