package results

import "testing"

// TestIsCrypto: the default entries name libraries exactly (less ".so"
// and a version), so "kae" is kae.so and not kaeload; "*" and an open "["
// are prefixes; an entry with a "/" is a Go package (tree), which the
// library rule ignores.
func TestIsCrypto(t *testing.T) {
	s := &ProfileSpec{Crypto: DefaultCryptoLibraries}
	for lib, want := range map[string]bool{
		"libcrypto.so.3": true, "libcrypto.so": true, "LIBSSL.so.1.1": true, "kae.so": true, "libwd_crypto.so.2": true,
		"qatengine.so": true, "libqat_s.so": true, "[hisi_hpre]": true, "[qat_4xxx]": true, "[intel_qat]": true,
		"kaeload": false, "kaeload.so": false, "libcrypto-legacy.so": false, "kernel": false, "libc.so.6": false,
		"qat": false, "[unknown]": false, "crypto": false,
	} {
		if got := s.IsCrypto(lib); got != want {
			t.Errorf("IsCrypto(%q) = %v, want %v", lib, got, want)
		}
	}
	for pkg, want := range map[string]bool{
		"crypto": true, "crypto/tls": true, "crypto/internal/fips140/bigmod": true, "golang.org/x/crypto/chacha20": true,
		"vendor/golang.org/x/crypto/chacha20poly1305": true, "cryptography": false, "runtime": false,
		"github.com/kaeload/kaeload/accel": false, "golang.org/x/cryptox": false,
	} {
		if got := s.IsCryptoPackage(pkg); got != want {
			t.Errorf("IsCryptoPackage(%q) = %v, want %v", pkg, got, want)
		}
	}
	own := &ProfileSpec{Crypto: []string{"github.com/kaeload/kaeload/accel", "qat*"}}
	if !own.IsCryptoPackage("github.com/kaeload/kaeload/accel") || own.IsCryptoPackage("github.com/kaeload/kaeload/accel/x") || !own.IsCrypto("qat.so") {
		t.Error("a configured package or library prefix does not match")
	}
}
