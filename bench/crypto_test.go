// Package bench holds side-by-side benchmarks that a person reruns: the raw
// cost of the handshake's crypto here, kaeload against wrk in wrk.sh, and
// one group against two in groups.sh. Report ratios measured in one run;
// absolute figures drift on shared machines.
package bench

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"strconv"
	"testing"
)

// BenchmarkHandshakeCrypto measures the private-key and key-exchange
// operations a full TLS handshake costs each side, so a handshakes/s figure
// can be set against what the CPU can sign per second: the server signs once
// per full handshake (RSA or ECDSA) and both sides do one key exchange.
func BenchmarkHandshakeCrypto(b *testing.B) {
	digest := sha256.Sum256([]byte("kaeload"))
	for _, bits := range []int{2048, 3072, 4096} {
		key, err := rsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("rsa"+strconv.Itoa(bits)+"-sign", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := key.Sign(rand.Reader, digest[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256}); err != nil {
					b.Fatal(err)
				}
			}
		})
		sig, _ := key.Sign(rand.Reader, digest[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256})
		b.Run("rsa"+strconv.Itoa(bits)+"-verify", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := rsa.VerifyPSS(&key.PublicKey, crypto.SHA256, digest[:], sig, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ecdsa-p256-sign", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ec.Sign(rand.Reader, digest[:], crypto.SHA256); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name  string
		curve ecdh.Curve
	}{{"x25519", ecdh.X25519()}, {"p256", ecdh.P256()}} {
		peer, _ := c.curve.GenerateKey(rand.Reader)
		b.Run("ecdhe-"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				k, err := c.curve.GenerateKey(rand.Reader)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := k.ECDH(peer.PublicKey()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
