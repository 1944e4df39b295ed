//go:build race

package main

// raceEnabled is true in a -race build, whose workers (this test binary)
// run several times slower: a load test then measures the client.
const raceEnabled = true
