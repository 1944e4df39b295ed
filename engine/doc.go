// Package engine is the request hot loop of one worker group: connection
// slots sending requests back to back for one window, counted by the
// window's rules (a request counts when it completes inside it). The rules,
// the timeline, back-off and the open loop are in docs/internals.md.
package engine
