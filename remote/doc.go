// Package remote runs commands on other hosts through the system OpenSSH
// client, one master connection per host, and installs the kaeload binary
// there. See docs/machines.md.
package remote
