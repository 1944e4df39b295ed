//go:build race

package metrics

// raceOn is true under the race detector, which makes the megabytes of
// TestStalledScraper's scrapes too slow to be worth it there (the
// scrape/publish concurrency is raced by the other tests).
const raceOn = true
