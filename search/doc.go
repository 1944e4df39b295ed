// Package search decides which point of an integer grid to measure next
// when a sweep variable is searched instead of enumerated: it is a driver
// above the runner's window primitive. Given the grid's size, a budget of
// measured windows and the windows finished so far (point and score,
// higher is better), Next names the next point to measure, or says that
// the search is done; Analyze gives the answer. Both are pure functions of
// their arguments: no clock, no randomness, no server. A search that was
// interrupted continues by calling Next with the windows its journal kept,
// and takes the same path it would have taken without the interruption.
//
// # The algorithm
//
// A coarse pass measures a few evenly spaced points, both ends included
// (CoarsePoints: a third of the budget, 3 to 9 points). Its means decide
// whether the curve looks unimodal: every coarse point higher than its
// coarse neighbours is a local best. When there is more than one, the
// search says so (Answer.Unimodal is false) and refines around each of
// them in turn, the one with the fewest refinement windows first, instead
// of assuming one peak it has not seen.
//
// Refinement is golden-section search on the grid, one bracket per local
// best: the bracket is the local best's coarse neighbours; inside it, b is
// the visited point with the highest mean and l and r the nearest visited
// points on each side. The next point lies in the larger of [l, b] and
// [b, r], 0.382 of the way from b to its end (the golden section; at least
// one grid step). A bracket is resolved when both of b's grid neighbours
// are visited. Golden section rather than successive halving: each window
// shrinks the bracket by a factor 0.618 (halving needs two windows, one
// either side of the best, for a factor 0.5, i.e. 0.707 per window), it
// keeps and reuses every point already measured (the bracket is rebuilt
// from the visited points, never re-measured), and it needs no model of
// the curve's shape (a parabola fit would be thrown off by the noise of a
// single window and by the kinks that offload ratios produce). On 0..100 a
// coarse pass of five and five golden steps bring the bracket from 50 to
// under 5 grid steps.
//
// A flat top wider than a coarse step defeats the brackets: the coarse
// pass measures two of its points, noise makes one of them the local
// best, and the top's part beyond the other lies outside that bracket.
// So once the best has two windows, a grid neighbour left unvisited by
// the best or by a point the t-test cannot tell from it (both with two
// windows or more) is measured before any further repetition: the
// plateau may go on there (extend; on the 7-point grid of
// TestFlatTopOffCoarse this took the whole top from 138 to 197 of 200
// seeds).
//
// The last windows (a sixth of the budget, RepeatReserve) and any the
// refinement does not need go to repetitions, where the noise matters:
// the best point first (its confidence interval needs two windows), then
// the visited points within noise of it, the one with the fewest windows
// first: a t-test on ln(score) that is not significant when both have two
// windows, else a difference under the 99.5 % Student quantile times the
// standard error from the noise pooled over every repeated point (wide
// while that noise rests on few windows). A point measured once is never
// measured again unless it is such a contender; refinement and extension
// never measure a visited point. A point gets at most MaxWindowsPerPoint windows: once
// every bracket is resolved and the best and its contenders have that
// many, the search is done, whatever budget is left.
//
// # The answer
//
// Analyze reports the best point (the highest mean) with the mean and the
// 95 % confidence interval of its scores (stats.Summarize), and the
// plateau: every visited point not significantly worse than the best,
// judged by stats.SearchPlateau, the same log-scale t-test with Holm's
// adjustment the run's comparisons use (the family is every pair of
// tested points, since the best was picked as the highest). A point measured once cannot be
// tested and is on no plateau (Answer.Untested). Users often prefer the
// lowest value of the plateau (Answer.PlateauLow).
package search
