// Package speed parses the output of crypto micro-benchmarks: openssl speed
// (1.1, 3.x, GmSSL; human-readable and -mr) and bssl speed.
package speed
