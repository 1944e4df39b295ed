package scenarios

import (
	"math"
	"math/rand/v2"
)

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
// order BlockOrder(Seed, len(Variants), r), restarting the server before
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
	case Randomized, Interleaved:
		for r := range p.Repeat {
			order := BlockOrder(p.Seed, len(fixed), r)
			if p.Order == Interleaved {
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

// blockStream separates BlockOrder's PCG stream from any other use of the
// same seed.
const blockStream = 0x6b61656c6f616431 // "kaeload1"

// BlockOrder returns the order in which round round of a randomized
// block design runs variants 0..variants-1: a permutation drawn by
// Fisher–Yates from a PCG generator seeded with (seed, round). It depends
// on nothing else, so a seed replays the same schedule on any machine and
// any Go release (math/rand/v2 specifies PCG's output, and the bounded
// draws are this function's own, not the library's).
func BlockOrder(seed uint64, variants, round int) []int {
	order := make([]int, variants)
	for i := range order {
		order[i] = i
	}
	rng := rand.NewPCG(seed, blockStream^uint64(round))
	for i := variants - 1; i > 0; i-- {
		j := int(uniform(rng, uint64(i+1)))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// uniform returns a uniform integer in [0, n) by rejection: draws at or
// above the largest multiple of n are thrown away, so no value is favoured.
func uniform(rng *rand.PCG, n uint64) uint64 {
	limit := math.MaxUint64 - math.MaxUint64%n
	for {
		if x := rng.Uint64(); x < limit {
			return x % n
		}
	}
}
