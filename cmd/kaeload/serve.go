package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/target"
)

var serveCommand = command{name: "serve", summary: "start the built-in HTTPS target (no session resumption)",
	synopsis: "[flags]", help: `
Starts the built-in HTTPS target: a small fixed body and, unless
--resumption, no session resumption, so every handshake is full. Runs
until interrupted. The simulated accelerator: docs/soft-ratio.md.

Example:
  kaeload serve --addr 127.0.0.1:8443 --cert ecdsa-p256`,
	what: "no arguments", setup: serveFlags}

func serveFlags(fs *flag.FlagSet) body {
	var o target.Options
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:8443", "listen address (host:port; port 0 picks a free one)")
	fs.StringVar(&o.Cert, "cert", "rsa2048", "generated certificate: "+strings.Join(target.CertKinds, ", "))
	fs.StringVar(&o.CertFile, "cert-file", "", "PEM certificate file (with --key-file; overrides --cert)")
	fs.StringVar(&o.KeyFile, "key-file", "", "PEM private key file")
	fs.BoolVar(&o.Resumption, "resumption", false, "allow session resumption (tickets and cache)")
	fs.IntVar(&o.HandshakeWork, "handshake-work", 0, "extra CPU work per handshake, in SHA-256 hashes of 64 bytes (a slower server for tests; 0 = none)")
	acc := fs.String("accel", "", "simulate an accelerator behind the signatures: on (defaults) or capacity=600/s,latency=2ms,soft-cpu=1.25ms,offload-cpu=50us[,engines=K][,queue=Q][,threshold=N][,mode=async|sync][,policy=ratio|overflow]; reads KAE_GO_SOFT_RATIO and KAELOAD_ACCEL; counters at "+target.AccelPath)
	return func(ctx context.Context, s stdio, _ []string) error {
		if o.HandshakeWork < 0 {
			return usageError(fmt.Errorf("serve: --handshake-work %d: want 0 or more", o.HandshakeWork))
		}
		if (o.CertFile == "") != (o.KeyFile == "") {
			return usageError(fmt.Errorf("serve: --cert-file and --key-file go together"))
		}
		if spec := *acc; spec != "" {
			if spec == "on" {
				spec = "" // the defaults
			}
			c, err := accel.Parse(spec, accel.Defaults())
			if err != nil {
				return usageError(fmt.Errorf("serve: --accel: %w", err))
			}
			o.Accel = &c
			certSet := false
			fs.Visit(func(f *flag.Flag) { certSet = certSet || f.Name == "cert" })
			if !certSet && o.CertFile == "" {
				o.Cert = "ecdsa-p256" // whose real signature is cheap
			}
		}
		srv, err := target.Listen(o)
		if err != nil {
			return err
		}
		what, res := cmp.Or(o.CertFile, o.Cert), map[bool]string{false: "off", true: "on"}[o.Resumption]
		fmt.Fprintf(s.out, "kaeload serve: https://%s/ (certificate %s, resumption %s); Ctrl-C stops\n", srv.Addr(), what, res)
		if a := srv.Accel(); a != nil {
			fmt.Fprintf(s.out, "accelerator: %v; counters at https://%s%s\n", a, srv.Addr(), target.AccelPath)
		}
		return srv.Serve(ctx)
	}
}
