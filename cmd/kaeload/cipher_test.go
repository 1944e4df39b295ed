package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
)

// TestCipherDifference: two nginx variants (TLS 1.2, nginx 1.22's
// default), one limited to AES-256-GCM.
// The negotiated lines name the certificate and the signature scheme, and
// the comparison's own line says which parameter differs.
func TestCipherDifference(t *testing.T) {
	alongside(t)
	addr := testkit.FreeAddr(t)
	dir, start, stop := nginxDir(t, addr)
	conf, err := os.ReadFile(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	aes256 := strings.Replace(string(conf), "ssl_session_cache off;", "ssl_session_cache off; ssl_ciphers ECDHE-RSA-AES256-GCM-SHA384;", 1)
	if err := os.WriteFile(filepath.Join(dir, "aes256.conf"), []byte(aes256), 0o600); err != nil {
		t.Fatal(err)
	}
	start = strings.Replace(start, "/nginx.conf", "/{conf}.conf", 1)
	scenario := writeScenario(t, fmt.Sprintf(`name: ciphers
target: {url: "https://%[1]s/"}
load: {connection: close, warmup: 100ms, duration: 300ms, groups: [{connections: 2}]}
repeat: 2
server: {start: %[2]q, stop: %[3]q, ready: {tls: %[1]q, timeout: 10s}}
variants:
  - {name: aes128, vars: {conf: nginx}}
  - {name: aes256, vars: {conf: aes256}}
`, addr, start, stop))
	out, errOut, code := kaeload(t, "run", scenario, "--no-save", "--progress", "off")
	text := out + errOut
	if code != 0 && code != 3 {
		t.Fatalf("exit %d\n%s", code, text)
	}
	for _, want := range []string{
		"TLS1.2 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 X25519, RSA 2048, rsa_pss_rsae_sha256",
		"TLS1.2 TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 X25519, RSA 2048, rsa_pss_rsae_sha256",
		"negotiated another cipher than the baseline: TLS1.2 TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}
