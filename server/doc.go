// Package server controls the server under test between variants: it runs
// the scenario's start, stop and reload commands with `sh -c` (locally, or
// on another machine through Control.Remote, an ssh client the caller
// provides), with the variant's environment, keeps
// their output in the run log, waits until the server is ready (TCP
// connect, TLS handshake or HTTPS GET), and runs probe commands whose
// numeric output becomes per-window deltas. It imports no other kaeload
// package.
//
// A start command may either return once the server has daemonized (nginx
// without "daemon off") or keep running in the foreground (kaeload serve,
// nginx -g 'daemon off;'). In the second case the process group is kept and
// Stop terminates it after the stop command (if any) has run, so nothing is
// left behind either way.
package server
