//go:build !race

package results

const raceEnabled = false
