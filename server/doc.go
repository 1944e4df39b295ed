// Package server controls the server under test: start, stop and reload
// commands (sh -c, locally or over ssh), the readiness check and probe
// commands. It imports no other kaeload package.
package server
