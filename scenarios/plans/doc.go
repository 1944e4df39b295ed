// Package plans holds the compiled Plan: what a scenario says to run,
// every value resolved (time.Duration, not "30s"; []int CPUs, not "0-7";
// the request bytes pre-rendered; TLS parameters as crypto/tls constants).
// The scenario compiler (package scenarios) produces it; the runner
// executes it and the engine sends its load.
//
// The rule of this package: resolved values only, and nothing of YAML.
// It imports no package of the scenario decoder, checker or compiler, and
// not gopkg.in/yaml.v3; engine and runner import it and never package
// scenarios, so the hot loop links nothing of YAML (a test enforces both).
// What a plan can be asked without a scenario lives here too: its
// invariants and limits (Check, CheckWorker, the Max constants, shared
// with the compiler so that a scenario and a plan beyond a limit read
// alike), its schedule (Steps), its secrets (Redact, Redacted, and a JSON
// encoding that never holds a secret value) and its TLS client
// configuration (TLS.Config).
//
// The vocabulary a run record stores with the plan's values — the
// thresholds, the capacity search's targets, a search's objective, the
// order of the windows and the equivalence margin's default — has its one
// home in package results (the run record, which imports nothing of
// ours); a Plan uses those types as they are, so that nothing is converted
// between the two.
package plans
