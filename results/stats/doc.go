// Package stats is kaeload's statistics (docs/statistics.md): log-scale t-tests, Holm, MDE, TOST, planning.
package stats
