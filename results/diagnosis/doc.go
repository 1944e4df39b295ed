// Package diagnosis reads a repetition's timeline and says what went wrong
// inside its window (accept-queue overflow, SYN cookies, TIME_WAIT
// overflow, reset storms, stalls, not steady), only where the run's own
// connections show it. See docs/diagnoses.md.
package diagnosis
