//go:build !race

package htmlreport

// raceEnabled is true under -race: the Chromium tests, which run a browser
// on a written page and start no goroutine of this package, then skip.
const raceEnabled = false
