package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kaeload/kaeload/target"
)

func serveCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "[flags]", `
Starts the built-in HTTPS target: a small fixed body, Connection: close
honoured, and no session resumption (tickets and session cache off) unless
--resumption, so every handshake is full. The certificate is generated in
memory (--cert) or read from files (--cert-file and --key-file). Runs until
interrupted.

Example:
  kaeload serve --addr 127.0.0.1:8443 --cert ecdsa-p256`, stdout)
	addr := fs.String("addr", "127.0.0.1:8443", "listen address (host:port; port 0 picks a free one)")
	cert := fs.String("cert", "rsa2048", "generated certificate: "+strings.Join(target.CertKinds, ", "))
	certFile := fs.String("cert-file", "", "PEM certificate file (with --key-file; overrides --cert)")
	keyFile := fs.String("key-file", "", "PEM private key file")
	resumption := fs.Bool("resumption", false, "allow session resumption (tickets and cache)")
	work := fs.Int("handshake-work", 0, "extra CPU work per handshake, in SHA-256 hashes of 64 bytes (a slower server for tests; 0 = none)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(fmt.Errorf("serve: unexpected argument %q (see kaeload serve --help)", pos[0]))
	}
	if *work < 0 {
		return usageError(fmt.Errorf("serve: --handshake-work %d: want 0 or more", *work))
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError(fmt.Errorf("serve: --cert-file and --key-file go together"))
	}
	srv, err := target.Listen(target.Options{Addr: *addr, Cert: *cert, CertFile: *certFile, KeyFile: *keyFile, Resumption: *resumption, HandshakeWork: *work})
	if err != nil {
		return err
	}
	what := *cert
	if *certFile != "" {
		what = *certFile
	}
	res := "off"
	if *resumption {
		res = "on"
	}
	fmt.Fprintf(stdout, "kaeload serve: https://%s/ (certificate %s, resumption %s); Ctrl-C stops\n", srv.Addr(), what, res)
	return srv.Serve(ctx)
}
