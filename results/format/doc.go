// Package format renders numbers and short phrases the same way in every
// output. It decides nothing.
package format
