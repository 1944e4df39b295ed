// Package results holds what a kaeload run measured and turns it into
// answers: exact merging, rates, statistics over repetitions, comparison
// between variants, JSON storage and the text report.
//
// # Data
//
// A worker group reports a Group: Counts (requests, status classes,
// connections, handshakes, resumptions, negotiated parameters, Errors by
// class), four HDR latency Histograms (connect, handshake, TTFB, total) and
// the Window they cover. A Rep is one repetition of one variant: its groups
// and their Total. A Variant is one server configuration with its
// repetitions; a Run is every variant plus the encoded plan, warnings and
// whether it was interrupted. Run is the content of run.json (WriteJSON,
// ReadRun; SchemaVersion).
//
// # Merging and rates
//
// Merge adds counts and merges histograms bucket by bucket, so a total's
// percentiles are those of all its requests, never averages of per-group
// percentiles. The controller gives every group the same window; workers'
// clocks make the groups' windows differ by a few milliseconds at most. The
// total's window is their hull [earliest Start, latest End], and the total
// rate is total requests / hull length: every counted request lies inside
// it, so the total rate is never overstated. A group's own rate
// (Group.Rate) uses its own window. GroupSpread says how evenly the groups
// performed.
//
// # Statistics
//
// The samples are the repetitions' total rates (Variant.Rates). Summarize
// gives the mean, sample standard deviation (n-1) and the 95 % confidence
// interval of the mean from Student's t quantile (StudentTQuantile, computed
// here from the regularized incomplete beta function; no external
// dependency). Compare runs Welch's two-sided t-test at Alpha between a
// variant and the baseline. With fewer than two repetitions on a side there
// is no interval and no test, which the types say explicitly (Stats.HasCI,
// TestNone) instead of carrying NaN.
//
// # Rendering
//
// WriteText writes the plain-text report for a terminal or CI log: per
// variant and repetition the totals, latency percentiles in ms and a
// per-group table with the spread, then a comparison table against the
// baseline variant when there is more than one variant or repetition.
//
// This package imports no other kaeload package: the plan arrives already
// encoded (Run.Plan).
package results
