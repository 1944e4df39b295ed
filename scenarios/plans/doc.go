// Package plans holds the compiled Plan: every value resolved, nothing of
// YAML, so that engine and runner never link the scenario compiler. See
// docs/internals.md.
package plans
