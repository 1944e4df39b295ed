package results

import (
	"math"
	rand "math/rand/v2"
)

// Order is the order a run's variants and repetitions ran in (Run.Order).
// The plan's compiler resolves the scenario's order to one of these, and
// the runner runs it; the record keeps it because it changes how a run is
// read (drift between variants is controlled, or not).
type Order string

// The orders a run can have.
const (
	// OrderRandomized runs randomized blocks: every round runs each
	// variant once, in the order BlockOrder(seed, variants, round) draws
	// for that round.
	OrderRandomized Order = "randomized"
	// OrderInterleaved runs one repetition of every variant, in plan
	// order, then the next round.
	OrderInterleaved Order = "interleaved"
	// OrderSequential runs every repetition of a variant, then the next
	// variant: drift of the machine is not controlled.
	OrderSequential Order = "sequential"
)

// blockStream separates BlockOrder's PCG stream from any other use of the
// same seed.
const blockStream = 0x6b61656c6f616431

// "kaeload1"

// BlockOrder returns the order in which round round of a randomized
// block design runs variants 0..variants-1: a permutation drawn by
// Fisher–Yates from a PCG generator seeded with (seed, round). It depends
// on nothing else, so a seed replays the same schedule on any machine and
// any Go release (math/rand/v2 specifies PCG's output, and the bounded
// draws are this function's own, not the library's). It lives with Order
// because it is what OrderRandomized and Run.Seed mean: a stored run's
// seed names the order its windows ran in.
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
