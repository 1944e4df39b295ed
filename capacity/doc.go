// Package capacity is the capacity search: it picks the rate of the next
// open-loop window from the windows measured so far (stepping up by a
// factor, then bisecting), and judges whether a window met the targets. It
// measures nothing; see docs/internals.md.
package capacity
