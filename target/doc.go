// Package target is kaeload's built-in HTTPS target, the server behind
// `kaeload serve`, so that a quick start and the tests need nothing else
// installed.
//
// GenerateCert and LoadCert make self-signed RSA-2048/3072/4096 or ECDSA
// P-256 certificates for localhost, 127.0.0.1 and ::1. Listen starts a
// TLS listener with such a certificate (or one read from PEM files), and
// Serve answers every HTTP/1.1 request with a fixed 200 response:
//
//	srv, err := target.Listen(target.Options{Addr: "127.0.0.1:0", Cert: "ecdsa-p256"})
//	if err != nil { … }
//	go srv.Serve(ctx)
//	… load srv.Addr() …
//	st := srv.Stats()
//
// The server keeps a connection alive unless the request carries
// "Connection: close", in which case it closes it after the response, as
// nginx does. Session resumption is off unless Options.Resumption: no
// session tickets are issued and no session cache is kept, so every
// handshake is a full one. Stats counts accepted connections, handshakes,
// resumed handshakes and answered requests with atomics, which is how the
// tests check from the server side what a client claims to have done.
package target
