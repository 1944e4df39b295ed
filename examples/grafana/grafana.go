// Package grafana holds kaeload's Grafana dashboard (kaeload.json): the
// live metrics of a run (kaeload run --metrics) by run, variant,
// repetition and group. "kaeload dashboard" prints it.
package grafana

import _ "embed"

// Dashboard is the dashboard's JSON, for Grafana's import.
//
//go:embed kaeload.json
var Dashboard []byte
