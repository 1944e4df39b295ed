// Package diagnosis reads a repetition's timeline and says what went wrong
// in its window (accept-queue overflow, SYN cookies, TIME_WAIT overflow,
// resets, stalls, not steady) where the run's own connections show it.
package diagnosis
