// Package capacity is the capacity search: it picks the next open-loop
// rate from the windows so far (up by a factor, then bisecting) and judges
// a window against the targets. See docs/internals.md.
package capacity
