// Package softratio predicts the best soft ratio (the share of signatures kept in software) from
// a run's windows by the async-offload model of docs/soft-ratio.md.
package softratio
