// Package remote runs commands on other machines through the system OpenSSH
// client: worker groups on client hosts (`ssh host kaeload worker
// --relay`, the same NDJSON stream as a local worker) and the server
// under test's start, stop, probe and speed commands and /proc/stat reads.
//
// Why the ssh binary and not an SSH library (golang.org/x/crypto/ssh): the
// lab's OpenSSH setup is the one thing every test bench already has and
// trusts. Calling ssh honours the user's ~/.ssh/config (aliases, User,
// Port, ProxyJump, IdentityFile, known_hosts, agent, certificates,
// GSSAPI) with no second implementation of any of it, and kaeload ships
// no agent or daemon of its own.
//
// # One connection per host
//
// Dial starts one master connection per host, in the foreground as a
// child of kaeload (ssh -M -N, ControlPath in a private temporary
// directory): it lasts exactly as long as the run (ControlPersist in
// effect while kaeload holds it, without outliving a kaeload that dies:
// on Linux it gets SIGKILL with its parent). Every later command
// multiplexes over it (ControlMaster=no with the same ControlPath), so a
// run opens one TCP connection and authenticates once per host. Close
// ends it with `ssh -O exit` and removes the directory.
//
// Every ssh command runs with BatchMode=yes (a key or agent, never a
// password prompt) and ConnectTimeout, ServerAliveInterval and
// ServerAliveCountMax set so that a dead host is noticed within seconds;
// the scenario's ssh_options come after them as -o Key=Value and so
// override all but BatchMode and the Control options, which scenarios
// refuses. A failure is an *Error naming the host.
//
// # Commands
//
// ssh joins its arguments into one line that the remote user's shell
// runs; Shell builds that line with every value single-quoted, and passes
// environment variables explicitly (env K=V … sh -c 'command'), never
// through AcceptEnv, which sshd forbids by default.
//
// # The kaeload binary
//
// Install makes a binary available on the host as
// ~/.cache/kaeload/<sha256>/kaeload: it hashes the file, looks for that
// path on the host, and uploads the file over the same connection when it
// is missing, then checks the uploaded file's sha256 on the host. Platform
// maps the host's `uname -sm` to GOOS/GOARCH so that the caller can pick
// a binary built for it.
package remote
