// Package speed parses the output of crypto micro-benchmarks: BoringSSL's
// `bssl speed`, and `openssl speed` of OpenSSL 1.1 and 3.x and of GmSSL
// (which is OpenSSL 1.1.0 based), in its human-readable and its -mr
// (machine-readable) forms. It imports no other kaeload package; the
// runner copies its Results into the run's results.
package speed
