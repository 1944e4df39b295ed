// Package target is the built-in HTTPS target behind kaeload serve:
// self-signed certificates, no session resumption, a fixed 200 response,
// and counters the tests read from the server side.
package target
