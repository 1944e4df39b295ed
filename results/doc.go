// Package results is the run record as run.json stores it, with exact merging of counts and
// histograms; it imports only results/stats and analyses nothing (docs/internals.md).
package results
