// Package metrics serves a run live to Prometheus (run --metrics) and writes
// a stored run's timeline as OpenMetrics, under the same names; values
// change only at interval boundaries. See docs/metrics.md.
package metrics
