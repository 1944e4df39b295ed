package results

import (
	"cmp"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/tls"
	"strconv"
	"strings"
)

// Handshake is what one TLS handshake negotiated; its String keys Counts.Negotiated ("TLS1.3
// TLS_AES_128_GCM_SHA256 X25519, ECDSA P-256, ecdsa_secp256r1_sha256"; older runs: the first part).
type Handshake struct {
	Version, Cipher, Group string
	Key, Scheme            string // the certificate's key, the signature scheme
}

func (h Handshake) String() string {
	s := h.Version + " " + h.Cipher + " " + h.Group
	if h.Key != "" {
		s += ", " + h.Key + ", " + h.Scheme
	}
	return s
}

// ParseHandshake reads a Counts.Negotiated key back.
func ParseHandshake(key string) (h Handshake, ok bool) {
	parts := strings.Split(key, ", ")
	f := strings.Fields(parts[0])
	if len(f) != 3 || (len(parts) != 1 && len(parts) != 3) {
		return Handshake{}, false
	}
	h = Handshake{Version: f[0], Cipher: f[1], Group: f[2]}
	if len(parts) == 3 {
		h.Key, h.Scheme = parts[1], parts[2]
	}
	return h, true
}

// Differences names the parts in which h and o differ, in key order; a part one lacks is none.
func (h Handshake) Differences(o Handshake) []string {
	var out []string
	for _, p := range []struct{ name, a, b string }{
		{"version", h.Version, o.Version}, {"cipher", h.Cipher, o.Cipher}, {"group", h.Group, o.Group},
		{"certificate key", h.Key, o.Key}, {"signature scheme", h.Scheme, o.Scheme},
	} {
		if p.a != "" && p.b != "" && p.a != p.b {
			out = append(out, p.name)
		}
	}
	return out
}

// NewHandshake describes a handshake from its connection state: the certificate's key ("RSA 2048")
// and the scheme a server signs with at its version (of Go's offer).
func NewHandshake(st *tls.ConnectionState) Handshake {
	h := Handshake{Version: strings.ReplaceAll(tls.VersionName(st.Version), " ", ""), Cipher: tls.CipherSuiteName(st.CipherSuite), Group: "none"}
	if st.CurveID != 0 {
		h.Group = st.CurveID.String()
	}
	if len(st.PeerCertificates) == 0 {
		return h
	}
	switch c := st.PeerCertificates[0]; k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		h.Key, h.Scheme = "RSA "+strconv.Itoa(k.N.BitLen()), "rsa_pss_rsae_sha256"
		if st.Version < tls.VersionTLS12 {
			h.Scheme = "rsa_pkcs1_md5_sha1"
		}
	case *ecdsa.PublicKey:
		name := k.Curve.Params().Name
		h.Key, h.Scheme = "ECDSA "+name, cmp.Or(ecdsaSchemes[name], "?")
	case ed25519.PublicKey:
		h.Key, h.Scheme = "Ed25519", "ed25519"
	default:
		h.Key, h.Scheme = c.PublicKeyAlgorithm.String(), "?"
	}
	return h
}

var ecdsaSchemes = map[string]string{
	"P-256": "ecdsa_secp256r1_sha256", "P-384": "ecdsa_secp384r1_sha384", "P-521": "ecdsa_secp521r1_sha512",
}
