// Package scenarios reads scenario files, checks them (every problem with
// file:line:col) and compiles them into a plans.Plan of resolved values.
// The format, key by key, is docs/scenario.md.
package scenarios
