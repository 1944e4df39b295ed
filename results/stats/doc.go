// Package stats is kaeload's statistics (docs/statistics.md): t-tests on the log scale, Holm, minimum
// detectable effect, equivalence (TOST), repetition planning and plateaus.
package stats
