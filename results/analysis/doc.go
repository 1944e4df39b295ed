// Package analysis computes, once, everything a run concludes (Analyze) and the comparison of
// stored runs (AnalyzeRuns). See docs/statistics.md and docs/internals.md.
package analysis
