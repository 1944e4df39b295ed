// Package stats is kaeload's statistics, pure functions of numbers: t-tests
// on the log scale, Holm, minimum detectable effect, equivalence (TOST),
// repetition planning and plateaus. See docs/statistics.md.
package stats
