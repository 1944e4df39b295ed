package results

import (
	"math"
	rand "math/rand/v2"
)

// Order is the order a run's windows ran in, which tells whether drift is controlled.
type Order string

// Every variant once a round, in BlockOrder's or plan order; or each variant's all at once.
const (
	OrderRandomized  Order = "randomized"
	OrderInterleaved Order = "interleaved"
	OrderSequential  Order = "sequential"
)

// blockStream ("kaeload1") separates BlockOrder's PCG stream from other uses of the seed.
const blockStream = 0x6b61656c6f616431

// BlockOrder is round's permutation of variants 0..variants-1: Fisher–Yates on a PCG seeded with
// (seed, round), whose output is specified, so a seed replays on any machine and Go release.
func BlockOrder(seed uint64, variants, round int) []int {
	order := make([]int, variants)
	for i := range order {
		order[i] = i
	}
	rng := rand.NewPCG(seed, blockStream^uint64(round))
	for i := variants - 1; i > 0; i-- {
		n := uint64(i + 1)
		x := rng.Uint64()
		for x >= math.MaxUint64-math.MaxUint64%n { // rejected: j uniform in [0, n)
			x = rng.Uint64()
		}
		j := int(x % n)
		order[i], order[j] = order[j], order[i]
	}
	return order
}
