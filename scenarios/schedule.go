package scenarios

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

// Steps lists the plan's measured windows in the order they run. Sequential:
// every repetition of the first variant, then the next; the server restarts
// when the variant changes. Interleaved: round r runs repetition r of every
// variant in order, restarting the server before each step. Between steps
// the runner pauses for Cooldown.
func (p *Plan) Steps() []Step {
	steps := make([]Step, 0, len(p.Variants)*p.Repeat)
	server := p.Server != nil
	switch p.Order {
	case Interleaved:
		for r := range p.Repeat {
			for v := range p.Variants {
				steps = append(steps, Step{Variant: v, Rep: r, Restart: server})
			}
		}
	default:
		for v := range p.Variants {
			for r := range p.Repeat {
				steps = append(steps, Step{Variant: v, Rep: r, Restart: server && r == 0})
			}
		}
	}
	return steps
}
