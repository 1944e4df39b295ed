// Package results is the run record: what a run measured, as run.json
// stores it, with exact merging of counts and histograms. It imports only
// results/stats and analyses nothing; the layering of results/... is in
// docs/internals.md (TestLayers enforces it).
package results
