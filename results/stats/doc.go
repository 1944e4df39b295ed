// Package stats is kaeload's statistics: pure functions of numbers, with
// no knowledge of runs, variants or reports.
//
// Summarize gives a sample's mean, standard deviation and the 95 %
// confidence interval of its geometric mean (on the log scale, from
// Student's t quantile, StudentTQuantile, computed here from the
// regularized incomplete beta function). Compare runs a two-sided t-test
// at Alpha on the logarithm of two samples (Student's pooled test for
// equal sizes, Welch's otherwise, a zero-variance branch for spreads
// below rounding). CompareFamily judges several comparisons against one
// base as one family: Holm-adjusted p (Holm), the minimum detectable
// effect at Power, and an equivalence verdict (two one-sided tests).
// NoisePct, RepsFor, PlannedMDEPct and Calibration plan repetitions;
// SearchPlateau and PairPlateau judge a search's plateau (Shaffer's
// step-down over all pairs).
//
// # Layer rule
//
// stats imports nothing of kaeload's: it sits below the run record's
// analysis (results/analysis) and the search driver (search), which call
// it; renderers never do. What cannot be computed is said in the types
// (Stats.HasCI, TestNone, TestCannot, Comparison.MDENote), never as NaN
// or Inf, so every value encodes to JSON.
package stats
