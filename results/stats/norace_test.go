//go:build !race

package stats

// raceEnabled is true in a -race build, where the thousand-value sweep's
// 3·10⁸ steps would take ten times as long.
const raceEnabled = false
