package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/scenarios/plans"
	"github.com/kaeload/kaeload/target"
)

func serveCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "[flags]", `
Starts the built-in HTTPS target: a small fixed body and, unless
--resumption, no session resumption, so every handshake is full. Runs
until interrupted. The simulated accelerator: docs/soft-ratio.md.

Example:
  kaeload serve --addr 127.0.0.1:8443 --cert ecdsa-p256`, stdout)
	addr := fs.String("addr", "127.0.0.1:8443", "listen address (host:port; port 0 picks a free one)")
	cert := fs.String("cert", "rsa2048", "generated certificate: "+strings.Join(target.CertKinds, ", "))
	certFile := fs.String("cert-file", "", "PEM certificate file (with --key-file; overrides --cert)")
	keyFile := fs.String("key-file", "", "PEM private key file")
	resumption := fs.Bool("resumption", false, "allow session resumption (tickets and cache)")
	work := fs.Int("handshake-work", 0, "extra CPU work per handshake, in SHA-256 hashes of 64 bytes (a slower server for tests; 0 = none)")
	acc := fs.String("accel", "", "simulate an accelerator behind the signatures: on (defaults) or capacity=600/s,latency=2ms,soft-cpu=1.25ms,offload-cpu=50us[,engines=K][,queue=Q][,threshold=N][,mode=async|sync][,policy=ratio|overflow]; reads KAE_GO_SOFT_RATIO and KAELOAD_ACCEL; counters at "+target.AccelPath)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0, "no arguments"); err != nil {
		return err
	}
	if *work < 0 {
		return usageError(fmt.Errorf("serve: --handshake-work %d: want 0 or more", *work))
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError(fmt.Errorf("serve: --cert-file and --key-file go together"))
	}
	o := target.Options{Addr: *addr, Cert: *cert, CertFile: *certFile, KeyFile: *keyFile, Resumption: *resumption, HandshakeWork: *work}
	if *acc != "" {
		if o.Accel, err = serveAccel(fs, &o, *acc); err != nil {
			return usageError(fmt.Errorf("serve: --accel: %w", err))
		}
	}
	srv, err := target.Listen(o)
	if err != nil {
		return err
	}
	what := o.Cert
	if *certFile != "" {
		what = *certFile
	}
	res := "off"
	if *resumption {
		res = "on"
	}
	fmt.Fprintf(stdout, "kaeload serve: https://%s/ (certificate %s, resumption %s); Ctrl-C stops\n", srv.Addr(), what, res)
	if a := srv.Accel(); a != nil {
		fmt.Fprintf(stdout, "accelerator: %v; counters at https://%s%s\n", a, srv.Addr(), target.AccelPath)
	}
	return srv.Serve(ctx)
}

// serveAccel reads --accel's spec ("on": the defaults); without --cert
// the certificate becomes ecdsa-p256, whose real signature is cheap.
func serveAccel(fs *flag.FlagSet, o *target.Options, spec string) (*plans.Accel, error) {
	if spec == "on" {
		spec = ""
	}
	c, err := accel.Parse(spec, accel.Defaults())
	if err != nil {
		return nil, err
	}
	certSet := false
	fs.Visit(func(f *flag.Flag) { certSet = certSet || f.Name == "cert" })
	if !certSet && o.CertFile == "" {
		o.Cert = "ecdsa-p256"
	}
	return &c, nil
}
