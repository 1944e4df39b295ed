// Package engine is the request hot loop of one worker group: connection
// slots sending requests for one window, counted by its rules (a request
// counts when it completes inside it). See docs/internals.md.
package engine
