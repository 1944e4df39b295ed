// Package search picks the next grid point of a searched variable (coarse
// pass, golden section, repetitions within noise) and gives the answer;
// pure functions of the windows so far. See docs/statistics.md.
package search
