//go:build race

package results

// raceEnabled is true under -race: the simulations, pure single-goroutine
// arithmetic that the race detector only slows tenfold, then skip.
const raceEnabled = true
