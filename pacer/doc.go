// Package pacer is the open-loop schedule: start k is due at t0 + k/rate
// (no drift), handed to whichever slot is free; a start due while every
// slot is busy is missed, never run late. See docs/internals.md.
package pacer
