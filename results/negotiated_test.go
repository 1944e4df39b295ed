package results

import (
	"crypto/tls"
	"slices"
	"testing"
)

func TestHandshakeKey(t *testing.T) {
	h := Handshake{Version: "TLS1.3", Cipher: "TLS_AES_128_GCM_SHA256", Group: "X25519", Key: "ECDSA P-256", Scheme: "ecdsa_secp256r1_sha256"}
	key := h.String()
	if want := "TLS1.3 TLS_AES_128_GCM_SHA256 X25519, ECDSA P-256, ecdsa_secp256r1_sha256"; key != want {
		t.Errorf("key %q, want %q", key, want)
	}
	for _, k := range []string{key, "TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 P-256"} {
		if got, ok := ParseHandshake(k); !ok || got.String() != k {
			t.Errorf("ParseHandshake(%q) = %+v, %v", k, got, ok)
		}
	}
	if _, ok := ParseHandshake("TLS1.3 only-two"); ok {
		t.Errorf("a two-field key parsed")
	}
	rsa := h
	rsa.Cipher, rsa.Key, rsa.Scheme = "TLS_AES_256_GCM_SHA384", "RSA 2048", "rsa_pss_rsae_sha256"
	if got, want := h.Differences(rsa), []string{"cipher", "certificate key", "signature scheme"}; !slices.Equal(got, want) {
		t.Errorf("Differences = %v, want %v", got, want)
	}
	old, _ := ParseHandshake("TLS1.3 TLS_AES_128_GCM_SHA256 X25519")
	if got := h.Differences(old); len(got) != 0 {
		t.Errorf("a key without a certificate differs from one with: %v", got)
	}
	if got := NewHandshake(&tls.ConnectionState{Version: tls.VersionTLS12, CipherSuite: tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}).String(); got != "TLS1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 none" {
		t.Errorf("NewHandshake without a certificate = %q", got)
	}
}
