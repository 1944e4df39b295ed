//go:build !race

package metrics

const raceOn = false
